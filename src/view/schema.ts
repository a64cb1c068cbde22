/**
 * The view-models: everything a template may see, one schema per kind of
 * template. The system prompt's view has no summary field at all, so no
 * system prompt template can reach the compact summary.
 */
import { z } from "zod";
import {
	type OptionalRootTemplate,
	ROOT_TEMPLATES,
	type RootTemplate,
	SECTIONS,
	SUMMARY_LABELS,
} from "./constants.js";
import { ToolResultStubViewSchema } from "./stub.js";

export {
	OPTIONAL_ROOT_TEMPLATES,
	type OptionalRootTemplate,
	ROOT_TEMPLATES,
	type RootTemplate,
	SECTIONS,
	type Section,
	SUMMARY_LABELS,
	type SummaryLabel,
} from "./constants.js";

export const ToolGroupSchema = z.object({
	name: z.string().describe("The category's name, from categories.yaml."),
	tools: z.array(z.string()).describe("The category's tools, sorted by name."),
});
export type ToolGroup = z.infer<typeof ToolGroupSchema>;

export const LineageSchema = z.object({
	nodeId: z.string().describe("The node this session was collapsed from."),
	sourceSessionId: z.string().optional().describe("The session that node belongs to."),
});
export type Lineage = z.infer<typeof LineageSchema>;

/** What the skeleton and the four section templates see. */
export const SystemViewSchema = z.object({
	harness: z
		.object({
			introduction: z
				.string()
				.optional()
				.describe("The session's replacement for the first sentence, when it has one."),
		})
		.describe("What the harness section may vary per session."),
	toolGroups: z
		.array(ToolGroupSchema)
		.describe("The tool inventory by category, in the order of categories.yaml."),
	environment: z
		.object({
			cwd: z.string().describe("The session's working directory."),
			memory: z.string().optional().describe("The session's memory text, when it has one."),
		})
		.describe("Where the session works, and what it remembers."),
	lineage: LineageSchema.optional().describe("Collapse metadata, when the session has it."),
});
export type SystemView = z.infer<typeof SystemViewSchema>;

export const SummaryComponentSchema = z.object({
	label: z
		.enum(SUMMARY_LABELS)
		.describe("The component's name: one of the five fixed components, in order."),
	value: z
		.string()
		.describe("Its text, cut to the component's cap (empty when the summary has none)."),
});
export type SummaryComponent = z.infer<typeof SummaryComponentSchema>;

/** `collapse-context`: the rolling compact summary of a collapsed session. */
export const CollapseContextViewSchema = z.object({
	components: z
		.array(SummaryComponentSchema)
		.describe("The five components of the rolling compact summary, always all five, in order."),
});

/** `compaction-summary`: an in-session compaction's summary. */
export const CompactionSummaryViewSchema = z.object({
	summary: z.string().describe("The compaction's summary, as the log holds it (neutralised)."),
	tokensBefore: z
		.number()
		.optional()
		.describe("The context's size in tokens before the compaction, when the log records it."),
});

/** `branch-summary`: the summary of a branch the conversation came back from. */
export const BranchSummaryViewSchema = z.object({
	summary: z.string().describe("The summary of the branch left behind (neutralised)."),
	fromId: z
		.string()
		.optional()
		.describe("The entry the branch was left from, when the log records it (one line)."),
});

/** `bash-execution`: a command the user ran themselves, with its output. */
export const BashExecutionViewSchema = z.object({
	command: z.string().describe("The command the user ran (neutralised)."),
	output: z.string().describe("What it printed, as the log holds it (neutralised)."),
	exitCode: z.number().optional().describe("Its exit code, when it ended with one."),
	cancelled: z.boolean().describe("Whether the user cancelled it."),
	truncated: z.boolean().describe("Whether the output was cut before it was stored."),
	fullOutputPath: z
		.string()
		.optional()
		.describe("Where the whole output was saved, when it was cut (one line)."),
});

/**
 * The templates rendered directly, with the view each is rendered with: the
 * skeleton and the framings. The sections are partials of the skeleton; any
 * other template is a partial too, checked where it is called.
 */
export const ROOT_VIEWS = {
	system: SystemViewSchema,
	"collapse-context": CollapseContextViewSchema,
	"compaction-summary": CompactionSummaryViewSchema,
	"branch-summary": BranchSummaryViewSchema,
	"bash-execution": BashExecutionViewSchema,
} as const satisfies Record<RootTemplate, z.ZodType>;

/** The templates a set may have, rendered directly, with their views. */
export const OPTIONAL_ROOT_VIEWS = {
	"tool-result-stub": ToolResultStubViewSchema,
} as const satisfies Record<OptionalRootTemplate, z.ZodType>;

/** Every template a set must have. */
export const REQUIRED_TEMPLATES: readonly string[] = [...ROOT_TEMPLATES, ...SECTIONS];
