/**
 * The work of `diff` on one session, for the corpus pool (./pool.ts): the
 * comparer is made once per thread (templates compiled, tokenizer loaded),
 * then each file is compared with it.
 */
import { Comparer, type SessionDiff, type Side } from "../measure/compare.js";
import { Units, type UnitsSpec } from "../measure/units.js";

export interface WorkerInit {
	from: Side;
	to: Side;
	units: UnitsSpec;
	strict: boolean;
	/** The session's tools (`--tools FILE`), on both sides; default: its own. */
	tools?: readonly string[];
}

/** The function comparing one file under `init`. */
export function createTask(init: WorkerInit): (file: string) => SessionDiff {
	const comparer = new Comparer(init, new Units(init.units), {
		strict: init.strict,
		...(init.tools === undefined ? {} : { tools: init.tools }),
	});
	return (file) => comparer.compare(file);
}
