/**
 * YAML 1.2 parsing with positions. Duplicate keys, unknown tags, aliases
 * that expand beyond reason and every other YAML error or warning fail with
 * the file, line and column, all of a file's problems at once; a zod
 * validation issue is located at the node its path names.
 */
import { isAlias, isNode, LineCounter, parseDocument, visit } from "yaml";
import type { z } from "zod";
import { type AnyCode, ContextError, type Diagnostic, formatPath } from "../errors.js";

export interface ParsedYaml {
	value: unknown;
	/** The 1-based line and column of the node at `path` (or the nearest parent). */
	locate(path: readonly PropertyKey[]): { line: number; column: number };
}

/** How many alias expansions a file may make: plenty for data, far from a "billion laughs". */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses `text`, whose first line is line `firstLine` of `file`.
 * Only plain data: the core schema, no custom tags, no aliases' surprises.
 */
export function parseYaml(text: string, file: string, code: AnyCode, firstLine = 1): ParsedYaml {
	const lineCounter = new LineCounter();
	const doc = parseDocument(text, {
		version: "1.2",
		schema: "core",
		uniqueKeys: true,
		strict: true,
		prettyErrors: false,
		lineCounter,
	});
	const at = (offset: number) => {
		const pos = lineCounter.linePos(offset);
		return { file, line: pos.line + firstLine - 1, column: pos.col };
	};
	const problems = [...doc.errors, ...doc.warnings].sort((a, b) => a.pos[0] - b.pos[0]);
	if (problems.length > 0) {
		throw located(
			code,
			problems.map((p) => ({ reason: p.message.split("\n")[0] ?? p.message, ...at(p.pos[0]) })),
		);
	}
	let value: unknown;
	try {
		value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
	} catch (error) {
		// The yaml package refuses a resource-exhaustion attack with a bare ReferenceError.
		let first: number | undefined;
		visit(doc, {
			Alias(_, node) {
				if (isAlias(node) && node.range) first ??= node.range[0];
			},
		});
		const reason = /alias/i.test(String((error as Error)?.message))
			? `too many aliases: expanding them would take more than ${MAX_ALIAS_COUNT} copies (write the data out instead)`
			: `unreadable YAML: ${(error as Error)?.message ?? String(error)}`;
		throw located(code, [{ reason, ...at(first ?? 0) }], error);
	}
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

/** Validates parsed YAML; every issue becomes a located diagnostic of one error. */
export function validateYaml<T extends z.ZodType>(
	schema: T,
	parsed: ParsedYaml,
	file: string,
	code: AnyCode,
	what: string,
): z.infer<T> {
	const result = schema.safeParse(parsed.value);
	if (result.success) return result.data;
	const problems = result.error.issues.map((issue) => {
		// An unknown key is best shown where it stands.
		const path =
			issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] as string] : issue.path;
		const where = path.length === 0 ? "" : ` at ${formatPath(path)}`;
		return { reason: `invalid ${what}${where}: ${issue.message}`, file, ...parsed.locate(path) };
	});
	throw located(code, problems);
}

type Problem = { reason: string; file: string; line: number; column: number };

/** One error for a file's problems: the first as its message, all as its diagnostics. */
function located(code: AnyCode, problems: readonly Problem[], cause?: unknown): ContextError {
	const [first, ...rest] = problems as [Problem, ...Problem[]];
	const diagnostics: Diagnostic[] = problems.map(({ reason, ...where }) => ({
		severity: "error",
		code,
		message: reason,
		...where,
	}));
	const more = rest.length > 0 ? ` (and ${rest.length} more)` : "";
	return new ContextError(code, `${first.reason}${more}`, first, {
		diagnostics,
		...(cause === undefined ? {} : { cause }),
	});
}
