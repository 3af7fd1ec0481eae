export declare const ROUTES: ({
    operation: string;
    host: string;
    method: string;
    path: string;
    creates: boolean;
    family: string;
    callback: null;
    taskIds: string[];
} | {
    operation: string;
    host: string;
    method: string;
    path: string;
    creates: boolean;
    family: string;
    callback: string;
    taskIds: string[];
} | {
    operation: string;
    host: string;
    method: string;
    path: string;
    creates: boolean;
    family: null;
    callback: null;
    taskIds: string[];
})[];
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
export declare const MUSIC_STAGE_RANK: {
    pending: number;
    text: number;
    first: number;
    complete: number;
    error: number;
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
