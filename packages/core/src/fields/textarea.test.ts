import { describe, expect, it } from 'vitest';
import { htmlToText, textareaField } from './textarea';

const s = textareaField.settingsSchema.parse({});

describe('textarea field', () => {
  it('keeps rich text as given and empties blank editor output', () => {
    expect(textareaField.normalise('<p>Hi <b>there</b></p>', s)).toEqual({
      ok: true,
      value: '<p>Hi <b>there</b></p>',
    });
    expect(textareaField.normalise('<p><br></p>', s)).toEqual({ ok: true, value: null });
    expect(textareaField.normalise('<p><img src="x.png"></p>', s).ok).toBe(true);
    expect(textareaField.normalise(12, s)).toEqual({ ok: false, message: 'Enter text' });
    expect(textareaField.normalise('x'.repeat(100_001), s)).toEqual({
      ok: false,
      message: 'Enter at most 100000 characters',
    });
  });

  it('formats as plain text', () => {
    expect(htmlToText('<p>a &amp; b</p><p>c<br>d</p>')).toBe('a & b\nc\nd');
    expect(textareaField.format('<script>x</script><i>y</i>', s)).toBe('xy');
    // line-ending tags in any case and form, other tags (and broken ones) dropped
    expect(htmlToText('<P>one</P ><DIV>two<BR/>three</div><ul><li>four</li></ul>< p>five')).toBe(
      'one\ntwo\nthree\nfour\nfive',
    );
    expect(htmlToText('<brx>a</pre>b<1>c &lt;p&gt; &quot;q&quot; &#39;r&#39;&nbsp;s')).toBe(
      'abc <p> "q" \'r\' s',
    );
  });

  it('is not sortable and only searchable for (not) empty', () => {
    expect(textareaField.sortable(s)).toBe(false);
    expect(textareaField.operators).toEqual(['string_empty', 'string_is_not_empty']);
  });
});
