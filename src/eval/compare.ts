/**
 * An answer against what the session recorded, and one set's answer against
 * another's: the same tools in the same order (or both text only), the same
 * parsed arguments, and the flips (calls whose chosen tool, or text-only
 * answer, differs between two sets for the same sample).
 */
import type { ToolCall } from "./contexts.js";

/** Whether an answer did what the session did at that call. */
export interface SameAsRecorded {
	/** The same tool names in the same order, or both text only. */
	tool: boolean;
	/** That, and the same parsed arguments call by call. */
	arguments: boolean;
}

/** What an answer chose: its tools' names in order, or `(text)` for a text-only answer. */
export function choiceOf(toolCalls: readonly ToolCall[]): string {
	return toolCalls.length === 0 ? "(text)" : toolCalls.map((c) => c.name).join(", ");
}

/** `answer`'s tool calls against `recorded`'s. */
export function sameAs(answer: readonly ToolCall[], recorded: readonly ToolCall[]): SameAsRecorded {
	const tool = choiceOf(answer) === choiceOf(recorded);
	return {
		tool,
		arguments: tool && answer.every((c, i) => equal(c.arguments, recorded[i]?.arguments)),
	};
}

/** Deep equality of JSON values (key order ignored). */
export function equal(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const ka = Object.keys(a);
	const kb = Object.keys(b);
	if (ka.length !== kb.length) return false;
	return ka.every((k) =>
		equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
	);
}

/**
 * Whether `actual` holds `expected`: an object each of whose keys holds
 * (extra keys allowed), an array element by element with the same length,
 * anything else equal.
 */
export function isSubset(expected: unknown, actual: unknown): boolean {
	if (typeof expected !== "object" || expected === null) return equal(expected, actual);
	if (typeof actual !== "object" || actual === null) return false;
	if (Array.isArray(expected)) {
		return (
			Array.isArray(actual) &&
			actual.length === expected.length &&
			expected.every((e, i) => isSubset(e, actual[i]))
		);
	}
	if (Array.isArray(actual)) return false;
	return Object.entries(expected).every(
		([k, v]) => Object.hasOwn(actual, k) && isSubset(v, (actual as Record<string, unknown>)[k]),
	);
}
