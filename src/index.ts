/**
 * theway-context: a session log in, its context bundle (system prompt +
 * messages) out. The public API: load a bundle, keep sessions open, convert
 * messages for a provider, and the one error type. Everything else is
 * internal and may change.
 */
// The full library compiles any set synchronously (`loadSync` on a folder of
// sources); the CLI's render path imports `service.ts` alone and loads the
// compiler only when a set must be compiled.
import "./templates/compile.js";

export {
	ContextError,
	type Diagnostic,
	type ErrorCode,
	formatDiagnostic,
	isContextError,
	type Location,
} from "./errors.js";
export type { AgentMessage, Entry, Header, SessionMetadata } from "./log/schema.js";
export type { VirtualizedResult } from "./render/stubs.js";
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
export { TemplateRegistry } from "./templates/registry.js";
