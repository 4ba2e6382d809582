/** Types of api-report.mjs, for the test that checks the report. */
export declare const root: string;
export declare const apiDir: string;
/** Every report: file name in api/ → text. Needs dist/ built. */
export declare function apiReports(): Map<string, string>;
/** One line per report file that differs from api/, is missing, or is for no entry point. */
export declare function staleReports(reports?: Map<string, string>): string[];
