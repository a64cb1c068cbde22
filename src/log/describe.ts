/**
 * Why a line was rejected, in words. zod is loaded here, on the first
 * rejected line only: a valid log never loads it (the checks of
 * `quick-check.ts` decide validity), so a cold start does not pay for it.
 */
import { createRequire } from "node:module";
import type * as Zod from "zod";
import { formatPath } from "../errors.js";
import { buildSchemas } from "./schema.js";

type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | undefined;

/** The log's zod schemas, built on first use. */
export function logSchemas(): Schemas {
	if (schemas === undefined) {
		const z = createRequire(import.meta.url)("zod") as typeof Zod;
		schemas = buildSchemas(z);
	}
	return schemas;
}

/** What is wrong with `value` according to the schema `which`, or undefined if it is valid. */
export function describeRejection(
	which: keyof Schemas,
	value: unknown,
	prefix?: string,
): string | undefined {
	const result = logSchemas()[which].safeParse(value);
	return result.success ? undefined : describeIssues(result.error.issues, prefix);
}

/** zod issues as one line: `a.b[0]: message; …` (the first three). The project's one formatter. */
export function describeIssues(
	issues: readonly { message: string; path: readonly PropertyKey[] }[],
	prefix?: string,
): string {
	const parts = issues.slice(0, 3).map((issue) => {
		const path = formatPath(prefix === undefined ? issue.path : [prefix, ...issue.path]);
		return path === "" ? issue.message : `${path}: ${issue.message}`;
	});
	if (issues.length > 3) parts.push(`and ${issues.length - 3} more`);
	return parts.join("; ");
}
