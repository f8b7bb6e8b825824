import { Command } from 'commander';
import { describeConfig, loadConfig } from '../../config.js';

export function configCommand(): Command {
  return new Command('config')
    .description('Check the environment and print the effective configuration (defaults included, passwords and the visitor salt masked); exits non-zero naming the first invalid variable')
    .action(() => {
      for (const { variable, value } of describeConfig(loadConfig())) console.log(`${variable}=${value}`);
    });
}
