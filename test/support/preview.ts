/** Helpers for the preview tests: a scratch workspace, raw HTTP requests, waiting for a change. */
import { cpSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { ViewPayload } from "../../src/preview/protocol.js";
import { tempDir } from "./temp.js";
import { copyBundledSet, editLastLine, NEWEST } from "./template-sets.js";

export { NEWEST };

export const EXAMPLES = join(import.meta.dirname, "../fixtures/examples");

/**
 * A scratch folder laid out as the package is: `sessions/` (the examples),
 * `templates/<newest>/` (the newest bundled set's templates) and beside it
 * `categories.yaml`, the categories that set uses (its own or the shared ones).
 */
export function scratch(): { root: string; sessions: string; templates: string } {
	const root = tempDir("theway-preview-");
	const sessions = join(root, "sessions");
	const templates = join(root, "templates");
	cpSync(EXAMPLES, sessions, { recursive: true });
	copyBundledSet(join(templates, NEWEST), root);
	return { root, sessions, templates };
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

/** `text` (a template) with `marker` written at the end of its body. */
export function withMarker(text: string, marker: string): string {
	return editLastLine(text, ` ${marker}`);
}

/** The field a broken template reads: no view-model has it. */
export const MISSING_FIELD = "noSuchField";

/** `text` (a template) with a last line that reads a field no view has, and that line's number. */
export function brokenTemplate(text: string): { text: string; line: number } {
	const body = text.endsWith("\n") ? text : `${text}\n`;
	return { text: `${body}{{${MISSING_FIELD}}}\n`, line: body.split("\n").length };
}

/** The server's view of `session` rendered with `set` ("" for the session's own). */
export async function getView(
	port: number,
	session: string,
	set = "",
): Promise<{ status: number; view: ViewPayload }> {
	const query = new URLSearchParams({ session, set });
	const reply = await rawGet(port, `/api/view?${query}`);
	return { status: reply.status, view: JSON.parse(reply.body) as ViewPayload };
}
