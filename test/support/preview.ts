/** Helpers for the preview tests: a scratch workspace, raw HTTP requests, waiting for a change. */
import { cpSync, mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { templateSet } from "./template-sets.js";

export const EXAMPLES = join(import.meta.dirname, "../fixtures/examples");

/** A scratch copy of the example sessions and of the bundled templates (set `v1`). */
export function scratch(): { sessions: string; templates: string } {
	const sessions = mkdtempSync(join(tmpdir(), "theway-preview-sessions-"));
	cpSync(EXAMPLES, sessions, { recursive: true });
	return { sessions, templates: templateSet() };
}

export interface RawReply {
	status: number;
	body: string;
	headers: Record<string, string | string[] | undefined>;
}

/**
 * A GET sent as written: the path is not normalised (unlike `fetch`) and the
 * `Host` header is whatever `host` says.
 */
export function rawGet(port: number, path: string, host = `127.0.0.1:${port}`): Promise<RawReply> {
	return new Promise((resolve, reject) => {
		const req = request(
			{ host: "127.0.0.1", port, path, method: "GET", headers: { host } },
			(res) => {
				let body = "";
				res.setEncoding("utf8");
				res.on("data", (chunk: string) => {
					body += chunk;
				});
				res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
			},
		);
		req.on("error", reject);
		req.end();
	});
}

/** Polls `probe` until it gives a value, or fails after `ms`. */
export async function eventually<T>(
	probe: () => Promise<T | undefined>,
	what: string,
	ms = 10_000,
): Promise<T> {
	const deadline = Date.now() + ms;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 25));
	}
}
