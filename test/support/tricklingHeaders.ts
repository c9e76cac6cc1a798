import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A raw TCP server on 127.0.0.1 that sends its status line and then one header byte every 50 ms,
 * forever, counting the connections it holds open: what a request's deadline must close.
 */
export async function tricklingHeaders() {
	const open = new Set<Socket>();
	let connections = 0;
	const timers: NodeJS.Timeout[] = [];
	const server: Server = createServer((socket) => {
		connections++;
		open.add(socket);
		socket.on('close', () => open.delete(socket));
		socket.on('error', () => undefined);
		socket.once('data', () => {
			socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
			const timer = setInterval(() => socket.write('a'), 50);
			timers.push(timer);
			socket.on('close', () => clearInterval(timer));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		openNow: () => open.size,
		connections: () => connections,
		stop: async () => {
			timers.forEach(clearInterval);
			for (const socket of open) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
