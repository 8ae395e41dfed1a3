import { describe, expect, it } from 'vitest';
import { gjsonGet } from './gjson.js';

// The sample document of GJSON's SYNTAX.md; the expectations below are the ones that document gives.
const doc = {
  name: { first: 'Tom', last: 'Anderson' },
  age: 37,
  children: ['Sara', 'Alex', 'Jack'],
  'fav.movie': 'Deer Hunter',
  friends: [
    { first: 'Dale', last: 'Murphy', age: 44, nets: ['ig', 'fb', 'tw'] },
    { first: 'Roger', last: 'Craig', age: 68, nets: ['fb', 'tw'] },
    { first: 'Jane', last: 'Murphy', age: 47, nets: ['ig', 'tw'] },
  ],
};
const get = (path: string) => gjsonGet(doc, path);

describe('GJSON paths', () => {
  // "A GJSON Path is intended to be easily expressed as a series of components seperated by a `.` character."
  it('follows keys and array indexes', () => {
    expect(get('name.last')).toBe('Anderson');
    expect(get('age')).toBe(37);
    expect(get('children')).toEqual(['Sara', 'Alex', 'Jack']);
    expect(get('children.1')).toBe('Alex');
    expect(get('friends.1')).toEqual(doc.friends[1]);
    expect(get('friends.1.last')).toBe('Craig');
  });

  it('gives undefined for a path that finds nothing or is not valid', () => {
    expect(get('name.middle')).toBeUndefined();
    expect(get('children.3')).toBeUndefined();
    expect(get('age.x')).toBeUndefined();
    expect(get('friends.')).toBeUndefined();
    expect(get('friends.#(last=="Murphy"')).toBeUndefined();
  });

  // "A key may contain the special wildcard characters `*` and `?`. The `*` will match on any zero+ characters, and
  // `?` matches on any one character."
  it('matches keys with * and ? wildcards', () => {
    expect(get('child*.2')).toBe('Jack');
    expect(get('c?ildren.0')).toBe('Sara');
  });

  // "Special purpose characters, such as `.`, `*`, and `?` can be escaped with `\`."
  it('reads escaped special characters as part of the key', () => {
    expect(get('fav\\.movie')).toBe('Deer Hunter');
  });

  // "The `#` character allows for digging into JSON Arrays." "To get the length of an array you'll just use the `#`
  // all by itself."
  it('gives an array length with # and digs into each element with #.key', () => {
    expect(get('friends.#')).toBe(3);
    expect(get('children.#')).toBe(3);
    expect(get('friends.#.age')).toEqual([44, 68, 47]);
    expect(get('friends.#.first')).toEqual(['Dale', 'Roger', 'Jane']);
  });

  // "You can also query an array for the first match by  using `#(...)`, or find all matches with `#(...)#`." "To
  // query for a non-object value in an array, you can forgo the string to the right of the operator." "Nested
  // queries are allowed."
  it('queries an array for the first match or all matches', () => {
    expect(get('friends.#(last=="Murphy").first')).toBe('Dale');
    expect(get('friends.#(last=="Murphy")#.first')).toEqual(['Dale', 'Jane']);
    expect(get('friends.#(age>45)#.last')).toEqual(['Craig', 'Murphy']);
    expect(get('friends.#(first%"D*").last')).toBe('Murphy');
    expect(get('friends.#(first!%"D*").last')).toBe('Craig');
    expect(get('children.#(!%"*a*")')).toBe('Alex');
    expect(get('children.#(%"*a*")#')).toEqual(['Sara', 'Jack']);
    expect(get('friends.#(nets.#(=="fb"))#.first')).toEqual(['Dale', 'Roger']);
    expect(get('friends.#(age>100).first')).toBeUndefined();
    expect(get('friends.#(age<=44)#.first')).toEqual(['Dale']);
  });

  // "The `~` (tilde) operator will convert a value to a boolean before comparison." "The last value which was
  // non-existent is treated as `false`"
  it('compares true-ish and false-ish values with ~', () => {
    const vals = {
      vals: [
        { a: 1, b: true },
        { a: 2, b: true },
        { a: 3, b: false },
        { a: 4, b: '0' },
        { a: 5, b: 0 },
        { a: 6, b: '1' },
        { a: 7, b: 1 },
        { a: 8, b: 'true' },
        { a: 9, b: false },
        { a: 10, b: null },
        { a: 11 },
      ],
    };
    expect(gjsonGet(vals, 'vals.#(b==~true)#.a')).toEqual([1, 2, 6, 7, 8]);
    expect(gjsonGet(vals, 'vals.#(b==~false)#.a')).toEqual([3, 4, 5, 9, 10, 11]);
    expect(gjsonGet(vals, 'vals.#(b==~null)#.a')).toEqual([10, 11]);
    expect(gjsonGet(vals, 'vals.#(b==~*)#.a')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  // "The `.` is standard separator, but it's also possible to use a `|`." "The cases where`|` differs from `.` is
  // when it's used after the `#` for Arrays and Queries."
  it('applies what follows | to the result of # and of queries', () => {
    expect(get('friends.0.first')).toBe('Dale');
    expect(get('friends|0.first')).toBe('Dale');
    expect(get('friends.0|first')).toBe('Dale');
    expect(get('friends|0|first')).toBe('Dale');
    expect(get('friends|#')).toBe(3);
    expect(get('friends.#(last="Murphy")#')).toEqual([doc.friends[0], doc.friends[2]]);
    expect(get('friends.#(last="Murphy")#.first')).toEqual(['Dale', 'Jane']);
    expect(get('friends.#(last="Murphy")#|first')).toBeUndefined();
    expect(get('friends.#(last="Murphy")#.0')).toEqual([]);
    expect(get('friends.#(last="Murphy")#|0')).toEqual(doc.friends[0]);
    expect(get('friends.#(last="Murphy")#.#')).toEqual([]);
    expect(get('friends.#(last="Murphy")#|#')).toBe(2);
  });

  // "A modifier is a path component that performs custom processing on the JSON." "`@tostr`: Converts json to a
  // string. Wraps a json string."
  it('applies modifiers', () => {
    expect(get('children.@reverse')).toEqual(['Jack', 'Alex', 'Sara']);
    expect(get('children.@reverse.0')).toBe('Jack');
    expect(get('children|@reverse')).toEqual(['Jack', 'Alex', 'Sara']);
    expect(get('children|@reverse|0')).toBe('Jack');
    expect(get('children|@tostr')).toBe('["Sara","Alex","Jack"]');
    expect(gjsonGet({ s: '{"a":1}' }, 's|@fromstr.a')).toBe(1);
    expect(get('name|@keys')).toEqual(['first', 'last']);
    expect(gjsonGet({ a: [1, [2, [3]]] }, 'a|@flatten')).toEqual([1, 2, [3]]);
    expect(gjsonGet({ a: [1, [2, [3]]] }, 'a|@flatten:{"deep":true}')).toEqual([1, 2, 3]);
    expect(get('children|@nope')).toBeUndefined();
  });

  // "Wrapping comma-separated paths between `[...]` or `{...}` will result in a new array or object, respectively."
  // "Otherwise, the name of the actual field will be used, in this case "first". If a name cannot be determined,
  // then "_" is used." "A json literal begins with the '!' declaration character."
  it('joins several paths into a new object or array', () => {
    expect(get('{name.first,age,"the_murphys":friends.#(last="Murphy")#.first}')).toEqual({ first: 'Tom', age: 37, the_murphys: ['Dale', 'Jane'] });
    expect(get('[name.first,age,children.0]')).toEqual(['Tom', 37, 'Sara']);
    expect(get('{name.first,age,"company":!"Happysoft","employed":!true}')).toEqual({ first: 'Tom', age: 37, company: 'Happysoft', employed: true });
    expect(get('{friends.#}')).toEqual({ _: 3 });
  });

  it('reads the paging selector the conversations scenario uses, leaving a missing path out', () => {
    const page = { conversations: [{ id: 'c1' }, { id: 'c2' }], cursor: 'abc' };
    expect(gjsonGet(page, '{ids:conversations.#.id|@tostr,count:conversations.#,cursor,next_offset}')).toEqual({
      ids: '["c1","c2"]',
      count: 2,
      cursor: 'abc',
    });
  });
});
