/** Types of api-report.mjs, for the test that checks the report. */
export declare const root: string;
export declare const apiDir: string;
/** The built declarations of every entry point, in one compiler program. */
export declare function declarationProgram(): {
  pkg: { name: string; exports: Record<string, unknown> };
  entries: Array<[string, { types: string; default: string }]>;
  program: import('typescript').Program;
  checker: import('typescript').TypeChecker;
};
/** Every report: file name in api/ → text. Needs dist/ built. */
export declare function apiReports(): Map<string, string>;
/** One line per report file that differs from api/, is missing, or is for no entry point. */
export declare function staleReports(reports?: Map<string, string>): string[];
