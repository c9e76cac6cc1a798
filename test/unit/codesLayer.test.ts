import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * nodes/Cloopen/codes/ stands below the resources (docs/architecture.md): its files import
 * only each other and node:crypto, so the code, the seal, the check and the guards are tested, and
 * read, without the node, n8n or the platform.
 */
const folder = join(__dirname, '..', '..', 'nodes', 'Cloopen', 'codes');
const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));

it.each(files)('%s imports only its neighbours and node:crypto', (file) => {
	const text = readFileSync(join(folder, file), 'utf8');
	const imports = [...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => match[1]);
	expect(imports.filter((name) => !/^\.\/[\w]+$/.test(name) && name !== 'node:crypto')).toEqual([]);
});

it('finds the files it checks', () => {
	expect(files).toEqual(expect.arrayContaining(['generateCode.ts', 'sealedCode.ts']));
});
