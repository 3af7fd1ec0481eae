/**
 * An operation of the service, by the client's method name: what a companion's `allow` lists.
 * @typedef {"generate" | "extend" | "uploadCover" | "uploadExtend" | "addInstrumental" | "addVocals" | "boostStyle" | "getTask" | "getCredits" | "generateCover" | "getCover" | "convertToWav" | "getWav" | "generateLyrics" | "getLyrics" | "getTimestampedLyrics" | "separateVocals" | "getVocalSeparation" | "generateVideo" | "getVideo" | "uploadFromUrl" | "uploadFile" | "uploadBase64" | "generateSounds" | "replaceSection" | "mashup" | "generatePersona" | "generateMidi" | "getMidi" | "recoverAudio" | "getRecovery" | "validateVoice" | "getVoiceValidation" | "regenerateVoicePhrase" | "createVoice" | "getVoice" | "checkVoice"} OperationName
 */
export type OperationName = "generate" | "extend" | "uploadCover" | "uploadExtend" | "addInstrumental" | "addVocals" | "boostStyle" | "getTask" | "getCredits" | "generateCover" | "getCover" | "convertToWav" | "getWav" | "generateLyrics" | "getLyrics" | "getTimestampedLyrics" | "separateVocals" | "getVocalSeparation" | "generateVideo" | "getVideo" | "uploadFromUrl" | "uploadFile" | "uploadBase64" | "generateSounds" | "replaceSection" | "mashup" | "generatePersona" | "generateMidi" | "getMidi" | "recoverAudio" | "getRecovery" | "validateVoice" | "getVoiceValidation" | "regenerateVoicePhrase" | "createVoice" | "getVoice" | "checkVoice";
/** @type {{ operation: OperationName, host: "music" | "upload", method: "GET" | "POST", path: string, creates: boolean, family: string | null, callback: string | null, taskIds: string[] }[]} */
export declare const ROUTES: {
    operation: OperationName;
    host: "music" | "upload";
    method: "GET" | "POST";
    path: string;
    creates: boolean;
    family: string | null;
    callback: string | null;
    taskIds: string[];
}[];
export declare const WAITERS: {
    music: string;
    cover: string;
    wav: string;
    lyrics: string;
    vocal_separation: string;
    video: string;
    midi: string;
    recovery: string;
    voice_validation: string;
    voice: string;
};
export declare const REFERENCE_FIELDS: string[];
export declare const NAMED_REFERENCE_FIELDS: string[];
export declare const MUSIC_STAGE_RANK: {
    pending: number;
    text: number;
    first: number;
    complete: number;
    error: number;
};
export declare const MUSIC_STAGE_STATUS: {
    pending: string;
    text: string;
    first: string;
    complete: string;
    error: string;
};
export declare const STATE_RANK: {
    pending: number;
    running: number;
    succeeded: number;
    failed: number;
};
export declare const MUSIC_STAGES: string[];
export declare const FINAL_STATES: string[];
export declare const DEFAULT_WAIT_TIMEOUT_MS = 600000;
export declare const DEFAULT_MAX_INTERVAL_MS = 30000;
