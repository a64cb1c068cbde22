/**
 * YAML 1.2 parsing with positions. Duplicate keys, unknown tags and every
 * other YAML error or warning fail with the file, line and column; a zod
 * validation issue is located at the node its path names.
 */
import { isNode, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { ContextError, type ErrorCode } from "../errors.js";

export interface ParsedYaml {
	value: unknown;
	/** The 1-based line and column of the node at `path` (or the nearest parent). */
	locate(path: readonly PropertyKey[]): { line: number; column: number };
}

/**
 * Parses `text`, whose first line is line `firstLine` of `file`.
 * Only plain data: the core schema, no custom tags, no aliases' surprises.
 */
export function parseYaml(text: string, file: string, code: ErrorCode, firstLine = 1): ParsedYaml {
	const lineCounter = new LineCounter();
	const doc = parseDocument(text, {
		version: "1.2",
		schema: "core",
		uniqueKeys: true,
		strict: true,
		prettyErrors: false,
		lineCounter,
	});
	const problem = doc.errors[0] ?? doc.warnings[0];
	if (problem !== undefined) {
		const pos = lineCounter.linePos(problem.pos[0]);
		const reason = problem.message.split("\n")[0] ?? problem.message;
		throw new ContextError(code, reason, { file, line: pos.line + firstLine - 1, column: pos.col });
	}
	const value = doc.toJS({ maxAliasCount: 100 });
	return {
		value,
		locate(path) {
			for (let n = path.length; n >= 0; n--) {
				const node = doc.getIn(path.slice(0, n) as unknown[], true);
				if (isNode(node) && node.range !== undefined && node.range !== null) {
					const pos = lineCounter.linePos(node.range[0]);
					return { line: pos.line + firstLine - 1, column: pos.col };
				}
			}
			return { line: firstLine, column: 1 };
		},
	};
}

/** Validates parsed YAML; the first issue becomes a located error. */
export function validateYaml<T extends z.ZodType>(
	schema: T,
	parsed: ParsedYaml,
	file: string,
	code: ErrorCode,
	what: string,
): z.infer<T> {
	const result = schema.safeParse(parsed.value);
	if (result.success) return result.data;
	const issue = result.error.issues[0] as z.core.$ZodIssue;
	// An unknown key is best shown where it stands.
	const path =
		issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] as string] : issue.path;
	const where = path.length === 0 ? "" : ` at ${path.join(".")}`;
	throw new ContextError(code, `invalid ${what}${where}: ${issue.message}`, {
		file,
		...parsed.locate(path),
	});
}
