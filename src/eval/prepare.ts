/**
 * Preparing an eval's requests session by session, as a task of the corpus
 * pool (the command line's `cli/pool.ts`, `--jobs N`): what a thread needs,
 * sent to each (plain data: the sets, the settings, the manifest, the
 * tokenizer's name), the builder it makes once, and what one session gives:
 * its calls, or for a dry run its requests as `--dry-run` writes them, made
 * as the calls come (a session's whole bodies are never all held at once).
 * A session's result is the same in any thread, so a run's requests do not
 * depend on how many threads prepared them.
 */
import { basename } from "node:path";
import { ContextError, type Diagnostic } from "../errors.js";
import { Prices, type PriceTable } from "../replay/prices.js";
import { loadTokenizerSync, type TokenizerName } from "../text/tokenizer.js";
import type { ToolDefinition } from "../view/tools-manifest.js";
import type { CallSelection } from "./calls.js";
import { type BaseSettings, ContextBuilder, type EvalSide, type PreparedCall } from "./contexts.js";
import { type DryRequest, dryRequests } from "./dry-run.js";

/** What a thread needs to prepare sessions as any other would. */
export interface PrepareInit {
	/** The set to ask with, then (`--vs`) the one to compare it to. */
	sides: readonly EvalSide[];
	settings: BaseSettings;
	manifest?: readonly ToolDefinition[];
	selection: CallSelection;
	seed: number;
	/** How a request's input tokens are counted, for the estimate. */
	tokenizer: TokenizerName;
	strict: boolean;
	/** Give each session's requests as `--dry-run` writes them, not its calls. */
	dryRun?: boolean;
	/** The `--prices` table: with the database, it tells a call from a message written in a model's place. */
	prices?: PriceTable;
}

/** One session prepared: its chosen calls and the read's warnings, or why it could not be. */
export interface PreparedSession {
	file: string;
	/** Its calls (none for a dry run). */
	calls: PreparedCall[];
	/** For a dry run: its calls' requests, as `--dry-run` writes them. */
	dry?: DryRequest[];
	diagnostics: Diagnostic[];
	/** The session's error, located; its calls are then none. */
	error?: string;
}

/** The work of `eval` on one session, for the corpus pool: a builder made once per thread. */
export function createTask(init: PrepareInit): (file: string) => PreparedSession {
	const builder = new ContextBuilder(
		init.sides,
		init.settings,
		init.manifest,
		loadTokenizerSync(init.tokenizer),
		{ strict: init.strict },
		new Prices(init.prices),
	);
	return (file) => {
		const diagnostics: Diagnostic[] = [];
		try {
			const calls = builder.prepare(file, init.selection, init.seed, basename(file), diagnostics);
			if (init.dryRun === true)
				return { file, calls: [], dry: [...dryRequests(calls)], diagnostics };
			return { file, calls: [...calls], diagnostics };
		} catch (error) {
			if (!(error instanceof ContextError)) throw error;
			return { file, calls: [], diagnostics: [], error: error.message };
		}
	};
}

/** Prepares every file in this thread, in order (what the pool does with one thread). */
export async function prepareHere(
	files: readonly string[],
	init: PrepareInit,
): Promise<PreparedSession[]> {
	const run = createTask(init);
	return files.map(run);
}
