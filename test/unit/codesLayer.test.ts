import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One-Time Code's rules/ stand below its store and operations (docs/architecture.md): its files import
 * only each other, node:crypto and nodes/shared/platform/ (facts of the platform, which import
 * nothing but each other and n8n-workflow's types), so the code, the check and the guards
 * are tested, and read, without the node, n8n or a server. The platform folder is allowed because
 * the number forms have one home there (phoneNumbers.ts), shared with the input rules, rather than
 * a copy here.
 */
const folder = join(__dirname, '..', '..', 'nodes', 'Cloopen', 'resources', 'oneTimeCode', 'rules');
const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));
const ALLOWED = [/^\.\/\w+$/, /^\.\.\/\.\.\/\.\.\/\.\.\/shared\/platform\/\w+$/, /^node:crypto$/];

it.each(files)('%s imports only its neighbours, node:crypto and nodes/shared/platform', (file) => {
	const text = readFileSync(join(folder, file), 'utf8');
	const imports = [...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => match[1]);
	expect(imports.filter((name) => !ALLOWED.some((allowed) => allowed.test(name)))).toEqual([]);
});

it('finds the files it checks', () => {
	expect(files).toEqual(expect.arrayContaining(['generateCode.ts', 'checkVerdict.ts']));
});
