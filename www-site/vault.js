// What the site keeps in IndexedDB, so that a reload, or a browser stopping its idle service
// worker, loses nothing: the emulator's files (tasks, uploads, credits, generated media) and small
// named values (the companion's state, the callbacks it received, the emulator's key).
// The emulator's host reads and writes synchronously, so the worker holds every file in a Map,
// read whole from IndexedDB when it wakes; each change is written behind, in one transaction per
// turn of the event loop, and `flushed()` says when the last one is on disk.

const DB = "tunesmith-demo";
const FILES = "files";
const VALUES = "values";

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(FILES);
      req.result.createObjectStore(VALUES);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

const done = (tx) => new Promise((resolve, reject) => {
  tx.oncomplete = () => resolve();
  tx.onerror = tx.onabort = () => reject(tx.error ?? new Error("the IndexedDB transaction was aborted"));
});

const asked = (req) => new Promise((resolve, reject) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
});

/** Opens the vault and reads every file and value into memory. */
export async function openVault() {
  const db = await open();
  const tx = db.transaction([FILES, VALUES], "readonly");
  const [paths, blobs, names, values] = await Promise.all([
    asked(tx.objectStore(FILES).getAllKeys()),
    asked(tx.objectStore(FILES).getAll()),
    asked(tx.objectStore(VALUES).getAllKeys()),
    asked(tx.objectStore(VALUES).getAll()),
  ]);
  const files = new Map(paths.map((p, i) => [String(p), blobs[i]]));
  const named = new Map(names.map((n, i) => [String(n), values[i]]));
  /** Changes not yet written: path -> bytes, or null for a removal. */
  const pendingFiles = new Map();
  const pendingValues = new Map();
  let scheduled = null;
  let writing = Promise.resolve();

  const flush = () => {
    scheduled = null;
    if (pendingFiles.size === 0 && pendingValues.size === 0) return writing;
    const f = [...pendingFiles];
    const v = [...pendingValues];
    pendingFiles.clear();
    pendingValues.clear();
    writing = writing.catch(() => {}).then(() => {
      const t = db.transaction([FILES, VALUES], "readwrite");
      for (const [path, bytes] of f) bytes === null ? t.objectStore(FILES).delete(path) : t.objectStore(FILES).put(bytes, path);
      for (const [name, value] of v) value === undefined ? t.objectStore(VALUES).delete(name) : t.objectStore(VALUES).put(value, name);
      return done(t);
    });
    writing.catch((e) => console.warn(`tunesmith site: IndexedDB write failed: ${e?.message ?? e}`));
    return writing;
  };
  const schedule = () => { scheduled ??= setTimeout(flush, 0); };
  const changed = (path, bytes) => { pendingFiles.set(path, bytes); schedule(); };
  const under = (dir) => (dir.endsWith("/") ? dir : `${dir}/`);

  /** The emulator host's storage (see emulator/wasm/src/host.rs): paths are keys. */
  const storage = {
    read: (path) => files.get(path),
    write: (path, bytes) => { files.set(path, bytes); changed(path, bytes); },
    append: (path, bytes) => {
      const old = files.get(path);
      let joined = bytes;
      if (old) {
        joined = new Uint8Array(old.length + bytes.length);
        joined.set(old);
        joined.set(bytes, old.length);
      }
      files.set(path, joined);
      changed(path, joined);
    },
    // As the package's memory storage (emulator/host.js) answers: the files directly in `dir`.
    list: (dir) => {
      const prefix = under(dir);
      return [...files.keys()].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes("/"));
    },
    exists: (path) => files.has(path),
    remove: (path) => { if (files.delete(path)) changed(path, null); },
    removeDir: (dir) => {
      const prefix = under(dir);
      for (const k of [...files.keys()]) if (k.startsWith(prefix)) { files.delete(k); changed(k, null); }
    },
    prepare: () => {},
  };

  return {
    storage,
    /** A named value as last set (structured-cloneable), or undefined. */
    get: (name) => named.get(name),
    set: (name, value) => { named.set(name, value); pendingValues.set(name, value); schedule(); },
    /** Resolves once every change made so far is written. */
    flushed: () => (scheduled ? (clearTimeout(scheduled), flush()) : writing).catch(() => {}),
  };
}

/** Forgets everything the site kept (the page's "start afresh"; tests). */
export async function wipeVault() {
  const db = await open();
  const t = db.transaction([FILES, VALUES], "readwrite");
  t.objectStore(FILES).clear();
  t.objectStore(VALUES).clear();
  await done(t);
  db.close();
}
