/**
 * pi's own loader as a process: open the session file with pi's
 * SessionManager and build the context (messages) it would send. Prints the
 * message count only, so its time is a lower bound of pi delivering a
 * context (the CLI also prints every message as JSON).
 * Usage: node bench/pi-loader.js FILE
 */
import { pathToFileURL } from "node:url";
import { PI_SESSION_MANAGER } from "./pi.js";

const { SessionManager } = await import(pathToFileURL(PI_SESSION_MANAGER).href);
const context = SessionManager.open(process.argv[2]).buildSessionContext();
process.stdout.write(`${context.messages.length}\n`);
