import { join } from 'node:path';

const root = join(__dirname, '..');

/**
 * Node's arguments for the emulator's command line as `npm run emulator` runs it (emulator/cli.ts
 * through the TypeScript hook), followed by the command line's own `args`.
 */
export const emulatorCliArguments = (...args: string[]): string[] => [
	'-r',
	join(root, 'dev', 'typescriptHook.js'),
	join(root, 'emulator', 'cli.ts'),
	...args,
];
