// `tunesmith emulator`: the emulator on two ports (emulator/serve.js; its flags are the native binary's).
export { runEmulator } from "../emulator/serve.js";
