import { describe, expect, it } from 'vitest';
import { readAsRunner, readOutputFile, runnerLines } from '../../helpers/workflow-commands.js';

const names = (output: string) => readAsRunner(output).obeyed.map((command) => command.name);

describe('the runner-rules reader', () => {
  it('ends lines at \\n, \\r\\n and a lone \\r, as StreamReader.ReadLine does', () => {
    expect(runnerLines('a\nb\r\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
    expect(runnerLines('a\n')).toEqual(['a']);
  });

  it('obeys a command only where the line starts with :: after leading whitespace', () => {
    expect(names('::error::x\n   ::warning::y\n\t::notice::z\n')).toEqual(['error', 'warning', 'notice']);
    expect(names('12:00:00 ::error::x\nsay ::error::x\n')).toEqual([]);
  });

  it('ignores names the runner has not registered, in any case it has', () => {
    expect(names('::made-up::x\n::ERROR::x\n::Add-Mask::s\n')).toEqual(['error', 'add-mask']);
  });

  it('needs the second :: separator', () => {
    expect(names('::error\n::error x=1\n')).toEqual([]);
  });

  // Pairs are not trimmed: ` line=3 ` is the key " line".
  it('reads properties after the first space, unescaping %0D %0A %3A %2C %25, and data unescaping %0D %0A %25', () => {
    const [command] = readAsRunner(
      '::error title=a%3Ab%2Cc%25,file=x.ts, line=3 ,bad,=v,k=::one%0Atwo%0D%25 %3A\n',
    ).obeyed;
    expect(command).toMatchObject({
      name: 'error',
      properties: { title: 'a:b,c%', file: 'x.ts', ' line': '3 ' },
      data: 'one\ntwo\r% %3A',
    });
  });

  it('finds the legacy ##[name] form anywhere in a line', () => {
    const [command] = readAsRunner('some text ##[error k=v%3B]data%5D\n').obeyed;
    expect(command).toMatchObject({ name: 'error', form: 'legacy', properties: { k: 'v;' }, data: 'data]' });
  });

  it('prefers the V2 form when a line has both', () => {
    expect(readAsRunner('::warning::a ##[error]b\n').obeyed).toMatchObject([{ name: 'warning', data: 'a ##[error]b' }]);
  });

  it('ignores every command after stop-commands until the token, in either form, resumes', () => {
    const output = [
      '::stop-commands::tok',
      '::error::hidden',
      '::stop-commands::other',
      '::other::',
      '::add-mask::s',
      '::TOK::',
      '::error::seen',
      '',
    ].join('\n');
    expect(names(output)).toEqual(['stop-commands', 'resume', 'error']);
    expect(names('::stop-commands::tok\nx ##[tok]\n::error::seen\n')).toEqual(['stop-commands', 'resume', 'error']);
    expect(readAsRunner('::stop-commands::tok\n').stopped).toBe(true);
  });

  it('never resumes an empty token, and a token is no command once resumed', () => {
    expect(names('::stop-commands::\n::error::x\n::::\n')).toEqual(['stop-commands']);
    expect(names('::stop-commands::tok\n::tok::\n::tok::\n')).toEqual(['stop-commands', 'resume']);
  });

  it('turns echo on and off', () => {
    expect(readAsRunner('::echo::on\n').echo).toBe(true);
    expect(readAsRunner('::echo::on\n::echo::OFF\n').echo).toBe(false);
  });
});

describe('the $GITHUB_OUTPUT reader', () => {
  it('reads name=value (the first = splits) and heredocs', () => {
    const values = readOutputFile('a=1\nb=x=y<<z\nc<<EOF\nline 1\nline 2\nEOF\n\nd<<D\n\nD\n');
    expect(Object.fromEntries(values)).toEqual({ a: '1', b: 'x=y<<z', c: 'line 1\nline 2', d: '' });
  });

  it('fails where the runner fails the step', () => {
    expect(() => readOutputFile('c<<EOF\nnever ends\n')).toThrow(/delimiter not found/);
    expect(() => readOutputFile('just text\n')).toThrow(/invalid format/);
    expect(() => readOutputFile('<<EOF\nEOF\n')).toThrow(/must not be empty/);
  });

  it('lets a value that contains the delimiter end early: the reason delimiters must be random', () => {
    const values = readOutputFile('detail<<EOF\nfirst\nEOF\nreason=forged\n');
    expect(values.get('reason')).toBe('forged');
  });
});
