// kernel_info_reply content, from the session's static KernelInfo; pure, so
// the IO worker can answer kernel_info on control while a cell blocks.
import type { KernelInfo } from '../language-session.js';
import { PROTOCOL_VERSION } from '../wire/message.js';
import type { Content } from '../wire/message.js';

export function kernelInfoContent(info: KernelInfo): Content {
  return {
    status: 'ok',
    protocol_version: PROTOCOL_VERSION,
    implementation: info.implementation,
    implementation_version: info.implementationVersion,
    language_info: info.languageInfo,
    banner: info.banner,
    help_links: info.helpLinks,
    debugger: false,
    // JEP 92's list of optional protocol features: iopub_welcome is JEP 65's.
    supported_features: ['iopub_welcome'],
  };
}
