/**
 * The function that cuts the key's spellings and callback tokens out of a text.
 * @param {string} key
 * @returns {(text: unknown) => string}
 */
export declare function scrubber(key: string): (text: unknown) => string;
