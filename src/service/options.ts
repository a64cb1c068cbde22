/**
 * A load's path and options, checked before anything is read: a caller's
 * slip (a number for a path, a string for `tools`) is a `bad_options` error
 * naming the option, never a TypeError from deep inside.
 */
import { resolve } from "node:path";
import { ContextError } from "../errors.js";
import { STDIN } from "../log/read.js";

/** The key of a session: its absolute path, or `-`. */
export function fileOf(path: string): string {
	return path === STDIN ? STDIN : resolve(path);
}

/** The file a load names, its path and options checked first. */
export function loadTarget(path: unknown, options: unknown): string {
	if (typeof path !== "string" || path === "") {
		throw new ContextError(
			"bad_options",
			`the path must be a non-empty string, not ${describe(path)}`,
		);
	}
	checkLoadOptions(options);
	return fileOf(path);
}

const STRING_OPTIONS = ["leaf", "templateVersion", "memory", "cwd"] as const;

function checkLoadOptions(options: unknown): void {
	const bad = (reason: string) => new ContextError("bad_options", reason);
	if (typeof options !== "object" || options === null || Array.isArray(options)) {
		throw bad(`the options must be an object, not ${describe(options)}`);
	}
	const o = options as Record<string, unknown>;
	for (const key of STRING_OPTIONS) {
		if (o[key] !== undefined && typeof o[key] !== "string") {
			throw bad(`option ${key} must be a string, not ${describe(o[key])}`);
		}
	}
	if (
		o.tools !== undefined &&
		!(Array.isArray(o.tools) && o.tools.every((t) => typeof t === "string"))
	) {
		throw bad(`option tools must be an array of tool names (strings), not ${describe(o.tools)}`);
	}
	if (o.virtualize !== undefined && typeof o.virtualize !== "boolean") {
		throw bad(`option virtualize must be true or false, not ${describe(o.virtualize)}`);
	}
}

const BOOLEAN_SERVICE_OPTIONS = ["strict", "lenient"] as const;
const COUNT_SERVICE_OPTIONS = [
	"retainBytes",
	"pipeTimeoutMs",
	"maxLineBytes",
	"maxOpenSessions",
] as const;

/** A service's options, checked as a load's are: `strict: "yes"` is an error, not a lenient read. */
export function checkServiceOptions(options: unknown): void {
	const bad = (reason: string) => new ContextError("bad_options", reason);
	if (typeof options !== "object" || options === null || Array.isArray(options)) {
		throw bad(`the options must be an object, not ${describe(options)}`);
	}
	const o = options as Record<string, unknown>;
	for (const key of BOOLEAN_SERVICE_OPTIONS) {
		if (o[key] !== undefined && typeof o[key] !== "boolean")
			throw bad(`option ${key} must be true or false, not ${describe(o[key])}`);
	}
	for (const key of COUNT_SERVICE_OPTIONS) {
		const v = o[key];
		if (v !== undefined && !(typeof v === "number" && v >= 0 && !Number.isNaN(v)))
			throw bad(`option ${key} must be a number ≥ 0, not ${describe(v)}`);
	}
	if (o.templates !== undefined && typeof o.templates !== "string")
		throw bad(`option templates must be a string, not ${describe(o.templates)}`);
	if (o.strict === true && o.lenient === true)
		throw bad("options strict and lenient contradict each other: give one");
}

/**
 * The one-off load's options (a load's and a service's together): a key
 * that is neither is a slip (`strit`), an error naming it.
 */
export function checkKnownKeys(options: object, known: readonly string[]): void {
	const unknown = Object.keys(options).filter((k) => !known.includes(k));
	if (unknown.length > 0)
		throw new ContextError(
			"bad_options",
			`unknown option${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")} (known: ${known.join(", ")})`,
		);
}

/** Every option a one-off load takes: a load's, then a service's. */
export const ONE_OFF_OPTIONS = [
	...STRING_OPTIONS,
	"tools",
	"virtualize",
	...BOOLEAN_SERVICE_OPTIONS,
	...COUNT_SERVICE_OPTIONS,
	"templates",
	"registry",
	"compiler",
	"foreign",
] as const;

function describe(value: unknown): string {
	if (Array.isArray(value)) return "an array";
	if (value === null) return "null";
	return typeof value === "string" ? JSON.stringify(value) : `${typeof value} ${String(value)}`;
}
