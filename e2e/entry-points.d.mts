/** The bundle of `entry` (a path relative to the repository), made first when missing or stale. */
export declare function bundled(entry: string): Promise<string>;
