/** Helpers to write session logs for tests into a temporary folder (removed after the file's tests). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ContextService, type LoadOptions, type ServiceOptions } from "../../src/index.js";
import { tempDir } from "./temp.js";

let dir: string | undefined;
let counter = 0;

export const HEADER = {
	type: "session",
	version: 3,
	id: "session-test",
	timestamp: "2026-01-01T00:00:00.000Z",
	cwd: "/home/user/project",
};

/** A new log file holding `content` (lines joined with newlines, a final one added). */
export function writeLog(content: string | readonly unknown[], name = "session"): string {
	const text =
		typeof content === "string"
			? content
			: `${content.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`;
	dir ??= tempDir("theway-context-test-");
	const path = join(dir, `${name}-${++counter}.jsonl`);
	writeFileSync(path, text);
	return path;
}

let time = 0;
/** An entry with the envelope fields filled in. */
export function entry(id: string, parentId: string | null, fields: Record<string, unknown>) {
	time += 1000;
	return {
		id,
		parentId,
		timestamp: new Date(Date.UTC(2026, 0, 1) + time).toISOString(),
		...fields,
	};
}

export const user = (id: string, parentId: string | null, text: string) =>
	entry(id, parentId, { type: "message", message: { role: "user", content: text, timestamp: 1 } });
export const assistant = (id: string, parentId: string | null, text: string) =>
	entry(id, parentId, {
		type: "message",
		message: {
			role: "assistant",
			content: [{ type: "text", text }],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-test",
			usage: {},
			stopReason: "stop",
			timestamp: 2,
		},
	});
export const metadata = (id: string, parentId: string | null, data: Record<string, unknown>) =>
	entry(id, parentId, { type: "custom", customType: "session_metadata", data });
export const compactContext = (id: string, parentId: string | null, summary: string) =>
	entry(id, parentId, { type: "custom", customType: "compact_context", data: { summary } });

/** Loads a log with a fresh service. */
export function load(path: string, options: LoadOptions & ServiceOptions = {}) {
	return new ContextService(options).loadSync(path, options);
}

/** The text of a section (between its tags), or undefined when absent. */
export function section(prompt: string, name: string): string | undefined {
	const match = new RegExp(`^<${name}>\\n([\\s\\S]*?)\\n</${name}>$`, "m").exec(prompt);
	return match?.[1];
}
