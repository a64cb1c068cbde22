/**
 * theway-context: a session log in, its context bundle (system prompt +
 * messages) out. The public API: load a bundle, keep sessions open, convert
 * messages for a provider, and the one error type. Everything else is
 * internal and may change.
 */
export {
	ContextError,
	type Diagnostic,
	type ErrorCode,
	formatDiagnostic,
	isContextError,
	type Location,
	type ToolCode,
} from "./errors.js";
export { ContextService, convertToLlm, loadContext, TemplateRegistry } from "./library.js";
export type { AgentMessage, Entry, Header, SessionMetadata } from "./log/schema.js";
export type { VirtualizedResult } from "./render/stubs.js";
export type { BundleMeta, ContextBundle, LoadOptions } from "./service/bundle.js";
export type { ServiceOptions } from "./service/context-service.js";
export type {
	BranchSummaryMessage,
	CollapseContextMessage,
	CompactionSummaryMessage,
	ContextMessage,
	LlmMessage,
} from "./session/messages.js";
export type { ModelRef } from "./session/project.js";
