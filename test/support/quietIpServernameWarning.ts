/**
 * n8n-core's HTTP helper sets the TLS server name to the request's host, and Node warns (DEP0123,
 * once per process) when that is an IP address: it is one in the tests that use HTTPS, which talk
 * to https://127.0.0.1 only. The node cannot change it (n8n's rules make it use that helper); see
 * README, Development. Exactly that warning is switched off for the test workers, nothing else.
 */
export function quietIpServernameWarning(): void {
	const flag = '--disable-warning=DEP0123';
	const options = process.env.NODE_OPTIONS ?? '';
	if (!options.split(/\s+/).includes(flag)) process.env.NODE_OPTIONS = `${options} ${flag}`.trim();
}
