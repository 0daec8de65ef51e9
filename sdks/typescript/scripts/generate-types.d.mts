/** The committed file the generator writes. */
export declare const GENERATED_FILE: string;
/** The TypeScript source openapi-typescript makes of one OpenAPI document, exactly as committed. */
export declare function renderTypes(document: Record<string, unknown>): Promise<string>;
