/**
 * The response cache: an answer kept on disk under a hash of what asked for
 * it (provider, endpoint, model, request body, sample), so a repeated run
 * sends nothing. Only answers are kept, never errors, and never the key (it
 * is not part of the request body, nor of the hash). One JSON file per
 * answer, written whole under a temporary name and renamed, so a run
 * stopped mid-write leaves no torn entry.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { makeFolders } from "../folders.js";
import { ioError } from "../log/read.js";
import type { Answer } from "./client.js";
import type { ModelChoice, RequestBody } from "./settings.js";

/** The default folder: `$XDG_CACHE_HOME/theway-context/eval`, else `~/.cache/theway-context/eval`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
	const base =
		env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ""
			? env.XDG_CACHE_HOME
			: join(homedir(), ".cache");
	return join(base, "theway-context", "eval");
}

/** The hash an answer is kept under. */
export function cacheKey(
	model: ModelChoice,
	baseUrl: string | undefined,
	body: RequestBody,
	sample: number,
): string {
	const what = JSON.stringify([model.provider, baseUrl ?? null, model.model, body, sample]);
	return createHash("sha256").update(what).digest("hex");
}

/** What the cache keeps of an answer. */
export interface CachedAnswer {
	answer: Answer;
	latencyMs: number;
}

/** Answers on disk under `dir`. */
export class ResponseCache {
	/** @throws ContextError `io` when `dir` cannot be made: said before anything is sent. */
	constructor(readonly dir: string) {
		try {
			makeFolders(dir);
		} catch (error) {
			throw ioError(
				dir,
				error,
				"cannot make the response cache's folder (give another with --cache)",
			);
		}
	}

	/** The answer kept under `key`, if any (an unreadable entry counts as none). */
	get(key: string): CachedAnswer | undefined {
		try {
			const value = JSON.parse(readFileSync(this.path(key), "utf8")) as CachedAnswer;
			return value !== null && typeof value === "object" && typeof value.answer === "object"
				? value
				: undefined;
		} catch {
			return undefined;
		}
	}

	/** Keeps `value` under `key`. @throws ContextError `io` when it cannot be written. */
	put(key: string, value: CachedAnswer): void {
		const path = this.path(key);
		try {
			makeFolders(join(this.dir, key.slice(0, 2)));
			const temporary = `${path}.${process.pid}.tmp`;
			writeFileSync(temporary, `${JSON.stringify(value)}\n`);
			renameSync(temporary, path);
		} catch (error) {
			throw ioError(path, error, "cannot write to the response cache");
		}
	}

	private path(key: string): string {
		return join(this.dir, key.slice(0, 2), `${key}.json`);
	}
}
