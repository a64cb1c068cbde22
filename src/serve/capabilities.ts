/**
 * The sidecar's `version` reply: what a client checks before relying on a
 * method or param: the package and protocol versions, the methods with
 * their params, and the template sets the sidecar renders with now.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../templates/load.js";
import type { TemplateRegistry } from "../templates/registry.js";
import { METHODS, PROTOCOL_VERSION } from "./protocol.js";

export interface Capabilities {
	name: string;
	/** The package's version (package.json). */
	version: string;
	/** {@link PROTOCOL_VERSION}. */
	protocol: number;
	/** Each method, with the names of its params and those required. */
	methods: Record<string, { params: string[]; required: string[] }>;
	/** The templates folder and its sets, oldest first; the newest is the default. */
	templates: string;
	templateVersions: string[];
	defaultTemplateVersion: string | null;
}

let packageInfo: { name: string; version: string } | undefined;

/** The package's name and version (package.json), read once. */
function ownPackage(): { name: string; version: string } {
	if (packageInfo !== undefined) return packageInfo;
	const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
		name?: unknown;
		version?: unknown;
	};
	packageInfo = {
		name: typeof pkg.name === "string" ? pkg.name : "theway-context",
		version: typeof pkg.version === "string" ? pkg.version : "unknown",
	};
	return packageInfo;
}

/** What this sidecar offers, with the sets of `registry`. */
export function capabilities(registry: TemplateRegistry): Capabilities {
	const versions = registry.versions();
	return {
		...ownPackage(),
		protocol: PROTOCOL_VERSION,
		methods: Object.fromEntries(
			Object.entries(METHODS).map(([name, spec]) => [
				name,
				{ params: Object.keys(spec.params), required: [...spec.required] },
			]),
		),
		templates: registry.dir,
		templateVersions: versions,
		defaultTemplateVersion: versions.at(-1) ?? null,
	};
}
