/**
 * The fixed names of the view-models, as plain constants: the render path
 * reads them without loading the schemas (and zod) that `schema.ts` builds
 * from them.
 */

/** The five fixed components of a rolling compact summary, in order. */
export const SUMMARY_LABELS = [
	"goal",
	"completed work",
	"key decisions",
	"next steps",
	"critical context",
] as const;
export type SummaryLabel = (typeof SUMMARY_LABELS)[number];

/** The four sections of the system prompt, in the only order they may appear. */
export const SECTIONS = ["harness", "tools", "environment", "lineage"] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * The templates rendered directly (each with its own view-model): the
 * skeleton and the framings. The sections are partials of the skeleton.
 */
export const ROOT_TEMPLATES = [
	"system",
	"collapse-context",
	"compaction-summary",
	"branch-summary",
	"bash-execution",
] as const;
export type RootTemplate = (typeof ROOT_TEMPLATES)[number];

/**
 * Templates a set may have and render directly, each with its own view: a
 * set without `tool-result-stub` does not virtualize tool results.
 */
export const OPTIONAL_ROOT_TEMPLATES = ["tool-result-stub"] as const;
export type OptionalRootTemplate = (typeof OPTIONAL_ROOT_TEMPLATES)[number];
