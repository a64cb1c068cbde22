/** `theway-context --version`: the package's name and version, from its package.json. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../templates/load.js";

/** `theway-context 0.1.0`. */
export function packageVersion(): string {
	const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
		name?: string;
		version?: string;
	};
	return `${pkg.name ?? "theway-context"} ${pkg.version ?? "unknown"}`;
}
