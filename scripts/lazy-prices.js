/**
 * The price database as the command line loads it (part of `npm run build`,
 * from scripts/bundle-cli.js): `@pydantic/genai-prices` as it is, code and
 * data, but for when its data is made. The package is one 480 kB file whose
 * first statement is the whole database as a literal (457 kB: every
 * provider and its models); running it cost a replay ~60 ms and 2,350 fresh
 * pages, though a run prices the models of one or two providers.
 *
 * Written here: `dist/cli/genai-prices.cjs`, the package's file with that
 * literal replaced by the providers without their models (each provider's
 * `models` is read from `dist/cli/genai-prices/<n>.json` the first time it
 * is looked at, then kept as a plain property), and the JSON files. Nothing
 * else changes: the package's own code finds the provider, matches the
 * model and prices the call, and it only ever reads the models of the
 * provider it found (and of that provider's fallbacks). The command
 * bundles require this file where the source imports the package; the
 * library (`dist/index.js`) imports the package itself.
 *
 * Checked when written: the package's file must start with the literal
 * (`const E=[`), the literal must be plain data that JSON keeps as it is
 * (compared deeply after a round trip), and the file's code must read the
 * data only through that one name; anything else fails the build.
 * Usage: node scripts/lazy-prices.js
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist/cli");
const require = createRequire(join(ROOT, "package.json"));
const SOURCE = require.resolve("@pydantic/genai-prices");
const { version } = JSON.parse(
	readFileSync(join(dirname(SOURCE), "..", "package.json"), "utf8"),
);
/** What the package's file starts with, up to the literal's `[`. */
const HEAD =
	'"use strict";Object.defineProperty(exports,Symbol.toStringTag,{value:"Module"});const E=';
/** The folder of the models' files, beside the module. */
const MODELS = "genai-prices";

/** The end of the array or object literal that starts at `start` (strings skipped). */
function literalEnd(text, start) {
	let depth = 0;
	let quote;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (quote !== undefined) {
			if (c === "\\") i++;
			else if (c === quote) quote = undefined;
		} else if (c === '"' || c === "'" || c === "`") quote = c;
		else if (c === "[" || c === "{") depth++;
		else if (c === "]" || c === "}") {
			depth--;
			if (depth === 0) return i + 1;
		}
	}
	throw new Error(`${SOURCE}: the price data never ends`);
}

/** The providers, their models moved out, as the source of a function that makes them lazily. */
function lazyProviders(providers) {
	const bare = providers.map(({ models: _, ...provider }) => provider);
	return `function __lazyProviders() {
	const providers = ${JSON.stringify(bare)};
	providers.forEach((provider, n) => {
		Object.defineProperty(provider, "models", {
			configurable: true,
			enumerable: true,
			get() {
				const file = require("node:path").join(__dirname, ${JSON.stringify(MODELS)}, n + ".json");
				const models = JSON.parse(require("node:fs").readFileSync(file, "utf8"));
				Object.defineProperty(provider, "models", { value: models, writable: true, configurable: true, enumerable: true });
				return models;
			},
		});
	});
	return providers;
}
`;
}

/** The package's file split: its price data (plain JSON data, checked) and the code after it. */
export function packagePrices() {
	const text = readFileSync(SOURCE, "utf8");
	if (!text.startsWith(HEAD)) throw new Error(`${SOURCE}: does not start with its price data`);
	const end = literalEnd(text, HEAD.length);
	const code = text.slice(end);
	// The data is read through `E` alone: once, as the active data (`k=E`) and its promise.
	const uses = code.match(/(?<![\w$.])E(?![\w$])/g) ?? [];
	if (uses.length !== 2 || !code.includes("let k=E,q=Promise.resolve(E)")) {
		throw new Error(`${SOURCE}: its code reads the price data other than as expected`);
	}
	const providers = new Function(`return ${text.slice(HEAD.length, end)}`)();
	if (!Array.isArray(providers) || !isDeepStrictEqual(providers, JSON.parse(JSON.stringify(providers)))) {
		throw new Error(`${SOURCE}: its price data is not plain JSON data`);
	}
	return { providers, code };
}

/** Writes `dist/cli/genai-prices.cjs` and its models' files; returns the module's path. */
export function writeLazyPrices() {
	const { providers, code } = packagePrices();
	const dir = join(CLI, MODELS);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	providers.forEach((provider, n) => {
		if (!Array.isArray(provider.models)) throw new Error(`${SOURCE}: provider ${n} has no models`);
		writeFileSync(join(dir, `${n}.json`), JSON.stringify(provider.models));
	});
	const out = join(CLI, "genai-prices.cjs");
	writeFileSync(
		out,
		`${HEAD}__lazyProviders()${code}\n// @pydantic/genai-prices ${version}, its data read lazily (scripts/lazy-prices.js).\n${lazyProviders(providers)}`,
	);
	return out;
}

if (process.argv[1] !== undefined && basename(process.argv[1]) === "lazy-prices.js") {
	console.log("lazy prices", writeLazyPrices());
}
