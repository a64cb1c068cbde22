/** theway-context: a session log in, its context bundle (system prompt + messages) out. */
export {
	ContextError,
	type Diagnostic,
	type ErrorCode,
	formatDiagnostic,
	isContextError,
	type Location,
} from "./errors.js";
export type { ParseOptions } from "./log/parse.js";
export type { AgentMessage, Entry, Header, SessionMetadata } from "./log/schema.js";
export { assertSections, renderSystemPrompt } from "./render/system-prompt.js";
export {
	type BundleMeta,
	type ContextBundle,
	ContextService,
	convertToLlm,
	type LoadOptions,
	loadContext,
	type ServiceOptions,
} from "./service.js";
export type {
	BranchSummaryMessage,
	CollapseContextMessage,
	CompactionSummaryMessage,
	ContextMessage,
	LlmMessage,
} from "./session/messages.js";
export type { ModelRef } from "./session/project.js";
export {
	compileTemplateSet,
	type TemplateSet,
	type TemplateSetSource,
} from "./templates/compile.js";
export { readTemplateSets } from "./templates/load.js";
export { TemplateRegistry } from "./templates/registry.js";
export type { ViewOptions } from "./view/derive.js";
export { SECTIONS, SUMMARY_LABELS, type SystemView, SystemViewSchema } from "./view/schema.js";
export { formatSummary, parseSummary } from "./view/summary.js";
