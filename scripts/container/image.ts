// The image as npm run test:container and the container benchmark build it: the base the
// Containerfile names (the local stand-in made when podman lacks it) and `podman build
// --pull=never` of the Containerfile, with the CA this machine trusts handed to npm in the build.
import { existsSync, writeFileSync } from 'node:fs';
import { baseImage, imageExists, podman, podmanOk } from './podman';
import { buildStandInBase } from './stand-in-base';

/** Makes sure podman has the base image; says which it is (the image podman has, or the stand-in). */
export async function prepareBase(say: (line: string) => void): Promise<string> {
  const base = baseImage();
  if (!(await imageExists(base))) {
    await buildStandInBase(base, say);
    return `base ${base}: not in podman's storage, a local stand-in made (scripts/container/stand-in-base.ts)`;
  }
  const standIn = await podmanOk(['image', 'inspect', base, '--format', '{{index .Labels "org.fos-mock.stand-in"}}']);
  return `base ${base}: ${standIn === 'true' ? 'the local stand-in (scripts/container/stand-in-base.ts)' : 'the image podman has'}`;
}

/** Debian's bundle of the CAs this machine trusts (a TLS-inspecting proxy's CA is added to it). */
const SYSTEM_CAS = '/etc/ssl/certs/ca-certificates.crt';

/**
 * `podman build` of the Containerfile as `image`, its output written to `logFile`; how long it took.
 * npm in the build trusts what this machine trusts: NODE_EXTRA_CA_CERTS, else the system's bundle.
 */
export async function buildImage(image: string, logFile: string): Promise<number> {
  const ca = process.env.NODE_EXTRA_CA_CERTS ?? (existsSync(SYSTEM_CAS) ? SYSTEM_CAS : undefined);
  const caArgs = ca && existsSync(ca) ? ['-v', `${ca}:/run/extra-ca.crt:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/extra-ca.crt'] : [];
  const started = Date.now();
  const result = await podman(['build', '--format', 'docker', '--pull=never', ...caArgs, '-t', image, '-f', 'Containerfile', '.']);
  writeFileSync(logFile, result.stdout + result.stderr);
  if (result.code !== 0) throw new Error(`podman build failed (${logFile}):\n${(result.stdout + result.stderr).slice(-3000)}`);
  return Date.now() - started;
}

/** The image's size and its base's, in bytes (`podman image inspect`, uncompressed). */
export async function imageSizes(image: string): Promise<{ image: number; base: number }> {
  const size = async (name: string) => Number(await podmanOk(['image', 'inspect', name, '--format', '{{.Size}}']));
  return { image: await size(image), base: await size(baseImage()) };
}
