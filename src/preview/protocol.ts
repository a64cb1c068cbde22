/**
 * What the preview server sends its page: plain JSON shapes, shared by the
 * server and the page's script (types only, so the page imports nothing).
 */

/** A place in a file: a template, `categories.yaml` or a session log. */
export interface PlaceView {
	/** The path as shown to people (relative to the working directory when inside it). */
	file: string;
	line?: number;
	column?: number;
}

export interface DiagnosticView extends PlaceView {
	severity: "warning" | "error";
	code: string;
	message: string;
	/** The source lines around the place, with a caret under the column. */
	frame?: string;
}

/** Characters and tokens (as the page's tokenizer counts them). */
export interface Size {
	chars: number;
	tokens: number;
	/** The token budget its template declares, if any. */
	budget?: number;
}

/** A partial's output inside a section. */
export interface PartView extends Size, PlaceView {
	name: string;
	/** 1 for a partial the section template calls, 2 for one that partial calls… */
	depth: number;
}

export interface SectionView extends Size {
	name: string;
	/** From its opening tag to its closing tag, both included. */
	text: string;
	/** The template that fills the section, at the line its body starts. */
	template: PlaceView;
	/** The skeleton line that opens the section. */
	skeleton?: PlaceView;
	/** The partials it is made of, when its template calls any. */
	parts: PartView[];
}

export interface MessageView extends Size {
	/** 0-based position in the bundle. */
	index: number;
	/** The role the model sees (`user`, `assistant`, `toolResult`). */
	role: string;
	/** What it is: user, assistant, toolResult, summary, custom. */
	kind: string;
	/** The role as stored (`compactionSummary`, `collapse_context`, …). */
	storedRole: string;
	entryId: string;
	/** Tool name of a tool result or custom type of a custom message. */
	label?: string;
	/** The framing template of a summary or custom message. */
	framing?: PlaceView & { name: string };
	/** The text as the model gets it (tool calls as name and JSON arguments). */
	text: string;
	/** The same content block by block, so thinking and tool calls can be told from text. */
	blocks: BlockView[];
	images: number;
	/** Estimated tokens of its images (not in `tokens`). */
	imageTokens: number;
	/** For a tool result sent as a stub: its size whole, and the tokens the stub saves. */
	virtualized?: { chars: number; tokens: number; saved: number };
}

/** One content block of a message, as the model gets it. */
export interface BlockView {
	/** `other`: a block of a type the page does not know, shown as its JSON. */
	type: "text" | "thinking" | "toolCall" | "image" | "other";
	/** The text, the thinking, a tool call's JSON arguments, an image's MIME type. */
	text: string;
	/** A tool call's tool name. */
	name?: string;
}

export interface TokenizerView {
	name: string;
	/** Shown beside the counts (exact for one model family, an estimate for others). */
	label: string;
}

/** A rendered session: what the model gets, measured. */
export interface RenderedView {
	ok: true;
	generation: number;
	session: { id: string; sessionId: string; leafId: string | null; entryCount: number };
	set: {
		version: string;
		fingerprint: string;
		pinned: string | null;
		/** The set the session renders with when none is asked for (null: that set does not build). */
		sessionSet: string | null;
	};
	tokenizer: TokenizerView;
	systemPrompt: Size & { sections: SectionView[] };
	messages: MessageView[];
	total: Size;
	/** What appending entries cannot change: the system prompt and every message but the last. */
	cacheStable: { tokens: number; messages: number };
	/** The last assistant message's recorded usage: the provider's own count. */
	recordedUsage: {
		input?: number;
		output?: number;
		cacheRead?: number;
		cacheWrite?: number;
		total?: number;
	} | null;
	diagnostics: DiagnosticView[];
}

/** What is shown instead of the prompt when it cannot be rendered. */
export interface FailedView {
	ok: false;
	generation: number;
	/** `templates`: the set failed to build; `session`: the log failed to load. */
	kind: "templates" | "session" | "request";
	title: string;
	diagnostics: DiagnosticView[];
}

export type ViewPayload = RenderedView | FailedView;

export interface SetChoice {
	/** The value to ask for (`""`: the set the session pins, or the newest). */
	id: string;
	label: string;
}

export interface SetsPayload {
	generation: number;
	sets: SetChoice[];
}

/** How the session list is ordered. */
export const SESSION_SORTS = ["name", "size", "date", "messages"] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/** A listed session: its id, bytes, last change (ms since the epoch) and, when counted, messages. */
export interface SessionItem {
	id: string;
	size: number;
	mtime: number;
	/** Message entries in the log, all branches (counted when the list is sorted by them). */
	messages?: number;
}

export interface SessionsPayload {
	total: number;
	matched: number;
	/** Folders below the depth searched, never read (relative, with `/`). */
	notSearched: string[];
	offset: number;
	items: SessionItem[];
	/** The catalogue: a folder, or one log's name. */
	source: string;
}

/** A server-sent event's data: what changed, and the generation it made. */
export interface ChangeEvent {
	generation: number;
	/** `templates`: re-render; `sessions`: these session ids changed. */
	what: "templates" | "sessions";
	sessions?: string[];
	/** Sessions were added or removed: the list is read again. */
	listChanged?: boolean;
}
