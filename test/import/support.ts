/** Importing the fixtures of `test/fixtures/import/` and loading the result, for the importer tests. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importSession } from "../../src/import/convert.js";
import type { ImportResult } from "../../src/import/entries.js";
import type { ContextBundle } from "../../src/service/bundle.js";
import { ContextService } from "../../src/service/context-service.js";
import { tempDir } from "../support/temp.js";

export const FIXTURES = join(import.meta.dirname, "../fixtures/import");

export interface Loaded {
	result: ImportResult;
	/** The imported log loaded under --strict. */
	bundle: ContextBundle;
	/** The imported log's entries (header first). */
	lines: Record<string, unknown>[];
}

/** Imports fixture `name`, writes the log to a temporary folder and loads it strictly. */
export function importFixture(name: string): Loaded {
	const file = join(FIXTURES, name);
	const result = importSession(readFileSync(file), file);
	const out = join(tempDir("theway-import-"), name);
	writeFileSync(out, result.text);
	const bundle = new ContextService({ strict: true }).loadSync(out);
	const lines = result.text
		.trimEnd()
		.split("\n")
		.map((l) => JSON.parse(l) as Record<string, unknown>);
	return { result, bundle, lines };
}

/** A message's text blocks joined, or its string content. */
export function textOf(message: unknown): string {
	const c = (message as { content?: unknown }).content;
	if (typeof c === "string") return c;
	if (!Array.isArray(c)) return "";
	return c.map((b: { type: string; text?: string }) => (b.type === "text" ? b.text : "")).join("");
}

/** A message as the shape a test reads of it. */
export function as<T>(message: unknown): T {
	return message as T;
}

/** The roles of a bundle's messages, in order. */
export function roles(bundle: ContextBundle): string[] {
	return bundle.messages.map((m) => m.role);
}
