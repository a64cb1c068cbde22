/**
 * An eval report read back from its JSON (`preview --eval FILE`): checked
 * with zod for what a reader of it relies on (the runs, their answers and
 * what was recorded, the flips), every problem named by its path in the
 * file, so a report of another shape, or no report at all, is refused with
 * a clear error instead of a blank page.
 */
import { z } from "zod";
import { ContextError, formatPath } from "../errors.js";

const ToolCalls = z.array(z.object({ name: z.string(), arguments: z.unknown() }));
const Run = z.object({
	file: z.string(),
	index: z.number().int().nonnegative(),
	set: z.string(),
	sample: z.number().int().nonnegative(),
	answer: z.object({ text: z.string(), toolCalls: ToolCalls }).nullable(),
	recorded: z.object({ text: z.string(), toolCalls: ToolCalls }),
	sameAsRecorded: z.object({ tool: z.boolean(), arguments: z.boolean() }).nullable(),
	assertions: z.array(z.object({ name: z.string(), pass: z.boolean(), reason: z.string() })),
	error: z.string().nullable(),
});
const Report = z.object({
	model: z.string(),
	runs: z.array(Run),
	vs: z.object({ set: z.string(), runs: z.array(Run) }).optional(),
	summary: z.object({
		flips: z.array(
			z.object({
				file: z.string(),
				index: z.number(),
				sample: z.number(),
				a: z.string(),
				b: z.string(),
			}),
		),
	}),
});

/** What a reader of a report gets: its model, every run of both sets, the flips. */
export interface ReadReport {
	file: string;
	model: string;
	runs: z.infer<typeof Run>[];
	flips: z.infer<typeof Report>["summary"]["flips"];
}

/** The report in `text` (the JSON `eval --format json` writes); `file` names it in errors (`bad_eval`). */
export function parseEvalReport(text: string, file: string): ReadReport {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new ContextError(
			"bad_eval",
			`not an eval report: not JSON (${(error as Error).message})`,
			{
				file,
			},
		);
	}
	const parsed = Report.safeParse(value);
	if (!parsed.success) {
		const problems = parsed.error.issues
			.slice(0, 5)
			.map((i) => `${i.path.length === 0 ? "" : `at ${formatPath(i.path)}: `}${i.message}`);
		throw new ContextError(
			"bad_eval",
			`not an eval report (eval --format json writes one): ${problems.join("; ")}`,
			{ file },
		);
	}
	const r = parsed.data;
	return { file, model: r.model, runs: [...r.runs, ...(r.vs?.runs ?? [])], flips: r.summary.flips };
}
