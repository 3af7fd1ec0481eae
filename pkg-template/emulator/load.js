// Instantiates the emulator's wasm once, from the file next to this one.
import { readFileSync } from 'node:fs';
import { initSync } from './tunesmith_emulator.js';

let loaded = false;

export function load() {
  if (!loaded) {
    initSync({ module: readFileSync(new URL('./tunesmith_emulator_bg.wasm', import.meta.url)) });
    loaded = true;
  }
}
