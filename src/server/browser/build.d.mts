/** The default output directory, where the server looks for the app (`browserAssetsDir`). */
export declare const DEFAULT_OUTDIR: string;
/** Builds the web UI into `outdir`; resolves to the byte size of each output file. */
export declare function buildBrowserApp(outdir?: string): Promise<Record<string, number>>;
