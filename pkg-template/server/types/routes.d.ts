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
