// Types of vendorDependencies.js (plain JavaScript: it runs in the build before any TypeScript), for its tests.

/** The libraries the build copies into dist/vendor. */
export const VENDORED_PACKAGES: string[];

/**
 * Copies what the compiled files under `roots` (inside `distDir`) require from `packages` into
 * `distDir/vendor/<package>/` and points those requires at the copies; returns the vendored files.
 */
export function vendorDependencies(options: {
	projectDir: string;
	distDir: string;
	roots: string[];
	packages: string[];
}): string[];
