// Preloaded (NODE_OPTIONS --import) by the fan-out bench into the processes it starts: in the media
// process only (apps/media/src/main.ts), V8's sampling profiler runs from start to exit and the
// profile is written to FANOUT_PROFILE_DIR as CPU.<date>.<time>.<pid>.0.001.cpuprofile, the name
// --cpu-prof would give it (which node refuses in NODE_OPTIONS).
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.FANOUT_PROFILE_DIR;
if (dir && process.argv.some((arg) => arg.includes(path.join('apps', 'media', 'src', 'main')))) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  let written = false;
  // An in-process session answers synchronously, so the profile is on disk before the exit. Written
  // at SIGTERM already: a loaded machine may not finish the shutdown before the supervisor's SIGKILL.
  const write = () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(path.join(dir, `CPU.0.0.${process.pid}.0.001.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  process.on('SIGTERM', write);
  process.on('exit', write);
}
