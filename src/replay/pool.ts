/**
 * Replaying one session after another in a thread of the corpus pool (the
 * command line's `cli/pool.ts`): what a thread needs, sent to each, and the
 * replayer it makes once.
 */
import { Units, type UnitsSpec } from "../measure/units.js";
import { Prices, type PriceTable } from "./prices.js";
import { Replayer, type ReplaySide, type SessionReplay } from "./replay.js";

/** What a worker needs to replay sessions as the main thread would. */
export interface ReplayInit {
	side: ReplaySide;
	vs?: ReplaySide;
	/** How tokens are counted: an encoding, or a units table (per model). */
	units: UnitsSpec;
	/** The user's override table (`--prices`), checked before the bundled database. */
	prices?: PriceTable;
	strict: boolean;
	/** The session's tools (`--tools FILE`), on every side; default: its own. */
	tools?: readonly string[];
}

/** A replayer from its init. */
export function replayerOf(init: ReplayInit): Replayer {
	return new Replayer(
		init.vs === undefined ? { side: init.side } : { side: init.side, vs: init.vs },
		new Units(init.units),
		new Prices(init.prices),
		{ strict: init.strict, ...(init.tools === undefined ? {} : { tools: init.tools }) },
	);
}

/**
 * The work of `replay` on one session, for the corpus pool: a replayer made
 * once per thread, its sets loaded (the compiler only if a set needs it).
 */
export async function createTask(init: ReplayInit): Promise<(file: string) => SessionReplay> {
	const replayer = replayerOf(init);
	await replayer.ready();
	return (file) => replayer.replay(file);
}
