/**
 * The error codes, read from the code: what the library's folders can
 * throw or warn is in the public list (`ErrorCode`), the tools' own codes
 * are given by the tools alone, and every listed code is used somewhere.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { usageError } from "../../src/cli/usage.js";
import { ContextError, LIBRARY_ERROR_CODES, TOOL_CODES, WARNING_CODES } from "../../src/errors.js";

const SRC = resolve(import.meta.dirname, "../../src");
const LIBRARY = [
	"errors.ts",
	"text",
	"log",
	"session",
	"view",
	"templates",
	"render",
	"service",
	"library.ts",
];
const ALL = new Set<string>([...LIBRARY_ERROR_CODES, ...WARNING_CODES, ...TOOL_CODES]);

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const path = join(dir, e.name);
		if (e.isDirectory()) return sources(path);
		return e.name.endsWith(".ts") ? [path] : [];
	});
}

/** The code literals a file uses: string literals that are codes of any list. */
function codesIn(text: string): string[] {
	return [...text.matchAll(/"([a-z0-9_]+)"/g)].map((m) => m[1] as string).filter((c) => ALL.has(c));
}

describe("error codes", () => {
	const files = sources(SRC).filter((f) => !f.endsWith("errors.ts"));
	const byPart = (f: string) => relative(SRC, f).split("/")[0] as string;

	it("the library's folders give only public codes", () => {
		const tool = new Set<string>(TOOL_CODES);
		const found = files
			.filter((f) => LIBRARY.includes(byPart(f)))
			.flatMap((f) =>
				codesIn(readFileSync(f, "utf8"))
					.filter((c) => tool.has(c))
					.map((c) => `${relative(SRC, f)}: ${c}`),
			);
		expect(found).toEqual([]);
	});

	it("every listed code is given somewhere", () => {
		const used = new Set(files.flatMap((f) => codesIn(readFileSync(f, "utf8"))));
		expect([...ALL].filter((c) => !used.has(c))).toEqual([]);
	});

	it("a usage error is the one error type with the command line's own code", () => {
		const error = usageError("missing <session.jsonl>");
		expect(error).toBeInstanceOf(ContextError);
		expect(error).toMatchObject({ code: "usage", reason: "missing <session.jsonl>" });
	});

	it("the lists do not overlap", () => {
		expect(ALL.size).toBe(LIBRARY_ERROR_CODES.length + WARNING_CODES.length + TOOL_CODES.length);
	});
});
