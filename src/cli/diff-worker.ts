/**
 * The work of `diff` on one session, for the corpus pool (./pool.ts): the
 * comparer is made once per thread (templates compiled, tokenizer loaded),
 * then each file is compared with it.
 */
import { Comparer, type SessionDiff, type Side } from "../measure/compare.js";
import { loadTokenizerSync, type TokenizerName } from "../text/tokenizer.js";

export interface WorkerInit {
	from: Side;
	to: Side;
	tokenizer: TokenizerName;
	strict: boolean;
}

/** The function comparing one file under `init`. */
export function createTask(init: WorkerInit): (file: string) => SessionDiff {
	const comparer = new Comparer(init, loadTokenizerSync(init.tokenizer), { strict: init.strict });
	return (file) => comparer.compare(file);
}
