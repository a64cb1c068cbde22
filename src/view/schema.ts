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
	harness: z.object({
		introduction: z
			.string()
			.optional()
			.describe("The session's replacement for the first sentence, when it has one."),
	}),
	toolGroups: z
		.array(ToolGroupSchema)
		.describe("The tool inventory by category, in the order of categories.yaml."),
	environment: z.object({
		cwd: z.string().describe("The session's working directory."),
		memory: z.string().optional().describe("The session's memory text, when it has one."),
	}),
	lineage: LineageSchema.optional().describe("Collapse metadata, when the session has it."),
});
export type SystemView = z.infer<typeof SystemViewSchema>;

export const SummaryComponentSchema = z.object({
	label: z.enum(SUMMARY_LABELS),
	value: z.string(),
});
export type SummaryComponent = z.infer<typeof SummaryComponentSchema>;

/** `collapse-context`: the rolling compact summary of a collapsed session. */
export const CollapseContextViewSchema = z.object({
	components: z.array(SummaryComponentSchema),
});

/** `compaction-summary`: an in-session compaction's summary. */
export const CompactionSummaryViewSchema = z.object({
	summary: z.string(),
	tokensBefore: z.number().optional(),
});

/** `branch-summary`: the summary of a branch the conversation came back from. */
export const BranchSummaryViewSchema = z.object({
	summary: z.string(),
	fromId: z.string().optional(),
});

/** `bash-execution`: a command the user ran themselves, with its output. */
export const BashExecutionViewSchema = z.object({
	command: z.string(),
	output: z.string(),
	exitCode: z.number().optional(),
	cancelled: z.boolean(),
	truncated: z.boolean(),
	fullOutputPath: z.string().optional(),
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
