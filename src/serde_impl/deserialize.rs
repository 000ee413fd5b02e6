//! `Deserialize` for the building blocks (keys, strings, raw JSON values, lists, unknown
//! fields) and the object builder every model object's `Deserialize` runs on.

use super::*;

/// A string from the deserializer: borrowed when it can be.
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Key<'de> {
    /// The key as a model string (escaped if needed).
    pub(crate) fn into_str(self) -> Str<'de> {
        match self.0 {
            Cow::Borrowed(s) => Str::new(s),
            Cow::Owned(s) => Str::new(&s).into_owned(),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Str<'de>, E> {
                Ok(Str::new(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str<'de>, E> {
                Ok(Str::new(v).into_owned())
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for RawJson<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(RAW_TOKEN, RawVisitor)
    }
}

/// Reads a [`RawJson`]: the text itself from `serde_json` (a map with the raw-value token as
/// its only key), a value written back to JSON text from anything else.
struct RawVisitor;

fn raw_from_key<E: de::Error>(text: Key<'_>) -> Result<RawJson<'_>, E> {
    match text.0 {
        Cow::Borrowed(t) => RawJson::from_text(t).map_err(E::custom),
        Cow::Owned(t) => RawJson::from_string(t).map_err(E::custom),
    }
}

fn raw_from_transcoded<E: de::Error>(
    f: impl FnOnce(&mut String) -> Result<(), E>,
) -> Result<RawJson<'static>, E> {
    let mut out = String::new();
    f(&mut out)?;
    RawJson::from_string(out).map_err(E::custom)
}

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawJson<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawJson<'de>, A::Error> {
        let Some(first) = map.next_key::<Key<'de>>()? else {
            return Ok(RawJson::from_validated("{}", JsonKind::Object, true));
        };
        if first.0 == RAW_TOKEN {
            let text: Key<'de> = map.next_value()?;
            return raw_from_key(text);
        }
        // A real map, from a deserializer that sends newtype structs to `deserialize_any`.
        raw_from_transcoded(|out| transcode_map(Some(first), &mut map, out, 1))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<RawJson<'de>, D::Error> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.deserialize(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RawJson<'de>, A::Error> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_seq(seq))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_i64(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_u64(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_f64(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_str(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<RawJson<'de>, E> {
        Ok(RawJson::null())
    }

    fn visit_none<E: de::Error>(self) -> Result<RawJson<'de>, E> {
        Ok(RawJson::null())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<RawJson<'de>, D::Error> {
        d.deserialize_newtype_struct(RAW_TOKEN, RawVisitor)
    }
}

/// Writes whatever value the deserializer hands over as compact JSON text.
struct Transcode<'o> {
    out: &'o mut String,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Transcode<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

fn push_json_string(text: &str, out: &mut String) {
    out.push('"');
    escape_into(text, out);
    out.push('"');
}

fn transcode_map<'de, A: MapAccess<'de>>(
    first: Option<Key<'de>>,
    map: &mut A,
    out: &mut String,
    depth: usize,
) -> Result<(), A::Error> {
    if depth > MAX_DEPTH {
        return Err(de::Error::custom(format_args!(
            "JSON nested deeper than {MAX_DEPTH} levels"
        )));
    }
    out.push('{');
    let mut key = first;
    if key.is_none() {
        key = map.next_key::<Key<'de>>()?;
    }
    let mut n = 0;
    while let Some(k) = key {
        if n > 0 {
            out.push(',');
        }
        n += 1;
        push_json_string(&k.0, out);
        out.push(':');
        map.next_value_seed(Transcode {
            out: &mut *out,
            depth,
        })?;
        key = map.next_key::<Key<'de>>()?;
    }
    out.push('}');
    Ok(())
}

impl<'de> Visitor<'de> for Transcode<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => {
                let _ = write!(self.out, "{n}");
                Ok(())
            }
            None => Err(E::custom("a JSON number must be finite")),
        }
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<(), E> {
        push_json_string(v.encode_utf8(&mut [0; 4]), self.out);
        Ok(())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        push_json_string(v, self.out);
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.out.push_str("null");
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.out.push_str("null");
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.depth + 1;
        if depth > MAX_DEPTH {
            return Err(de::Error::custom(format_args!(
                "JSON nested deeper than {MAX_DEPTH} levels"
            )));
        }
        self.out.push('[');
        let mut n = 0;
        loop {
            let mark = self.out.len();
            if n > 0 {
                self.out.push(',');
            }
            let more = seq.next_element_seed(Transcode {
                out: &mut *self.out,
                depth,
            })?;
            if more.is_none() {
                self.out.truncate(mark);
                break;
            }
            n += 1;
        }
        self.out.push(']');
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        transcode_map(None, &mut map, self.out, self.depth + 1)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<'_, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(d).map(List::from)
    }
}

/// A map of unknown fields (every key is kept as unknown).
impl<'de: 'a, 'a> Deserialize<'de> for Extra<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Extra<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Extra<'de>, A::Error> {
                let mut b = ObjectBuilder::default();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    let value = map.next_value()?;
                    b.unknown::<A::Error>(key, value)?;
                }
                Ok(b.finish())
            }
        }
        d.deserialize_map(V)
    }
}

/// A map with exactly one entry.
impl<'de: 'a, 'a> Deserialize<'de> for Field<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let extra = Extra::deserialize(d)?;
        match extra.fields() {
            [f] => Ok(f.clone()),
            _ => Err(de::Error::invalid_length(
                extra.fields().len(),
                &"an object with one entry",
            )),
        }
    }
}

// Deserialize: objects

/// Collects the unknown fields of an object and its wire order, and rejects duplicate known
/// fields, as the parser does.
#[derive(Default)]
pub(crate) struct ObjectBuilder<'de> {
    seen: u64,
    order: SmallVec<[u32; 16]>,
    non_canonical: bool,
    last_known: Option<u32>,
    extras: Vec<Field<'de>>,
}

impl<'de> ObjectBuilder<'de> {
    /// Records known field `id`; a second occurrence is an error.
    pub(crate) fn known<E: de::Error>(
        &mut self,
        id: usize,
        names: &'static [&'static str],
    ) -> Result<(), E> {
        let bit = 1u64 << (id & 63);
        if self.seen & bit != 0 {
            return Err(E::duplicate_field(
                names.get(id).copied().unwrap_or_default(),
            ));
        }
        self.seen |= bit;
        let id32 = id as u32;
        if !self.extras.is_empty() || self.last_known.is_some_and(|l| l > id32) {
            self.non_canonical = true;
        }
        self.last_known = Some(id32);
        self.order.push(id32);
        Ok(())
    }

    /// Keeps an unknown field.
    pub(crate) fn unknown<E: de::Error>(
        &mut self,
        key: Key<'de>,
        value: RawJson<'de>,
    ) -> Result<(), E> {
        let i = self.extras.len();
        if i >= (u32::MAX - EXTRA_BASE) as usize {
            return Err(E::custom(format_args!(
                "more than {} unknown fields in one object",
                u32::MAX - EXTRA_BASE
            )));
        }
        self.order.push(EXTRA_BASE + i as u32);
        self.extras.push(Field {
            key: key.into_str(),
            value,
        });
        Ok(())
    }

    pub(crate) fn finish(self) -> Extra<'de> {
        Extra::from_parts(
            if self.extras.is_empty() {
                List::new()
            } else {
                List::from(self.extras)
            },
            if self.non_canonical {
                List::from(self.order.into_vec())
            } else {
                List::new()
            },
        )
    }
}

/// Position of `key` among `names`.
pub(crate) fn field_id(names: &[&str], key: &Key<'_>) -> Option<usize> {
    names.iter().position(|n| *n == key.0)
}

/// Fields read before an object's discriminator, kept raw until its kind is known.
pub(crate) type Pending<'de> = Vec<(Key<'de>, RawJson<'de>)>;

/// Reads an object discriminated by `tag` (which may come anywhere): fields before it are kept
/// raw; `then` gets the index of the tag's value in `kinds`, the map and those fields.
pub(crate) fn de_tagged<'de, A: MapAccess<'de>, T>(
    map: &mut A,
    tag: &'static str,
    kinds: &'static [&'static str],
    then: impl FnOnce(usize, &mut A, Pending<'de>) -> Result<T, A::Error>,
) -> Result<T, A::Error> {
    let mut pending = Pending::new();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if key.0 == tag {
            let v: Str<'de> = map.next_value()?;
            let text = v.unescaped();
            let i = kinds
                .iter()
                .position(|k| *k == text)
                .ok_or_else(|| de::Error::unknown_variant(&text, kinds))?;
            return then(i, map, pending);
        }
        let raw: RawJson<'de> = map.next_value()?;
        pending.push((key, raw));
    }
    Err(de::Error::missing_field(tag))
}

/// Checks a discriminator met inside an object whose kind is already fixed.
pub(crate) fn check_tag<'de, A: MapAccess<'de>>(
    map: &mut A,
    allowed: &'static [&'static str],
) -> Result<(), A::Error> {
    let v: Str<'de> = map.next_value()?;
    if allowed.iter().any(|a| v.eq_text(a)) {
        Ok(())
    } else {
        Err(de::Error::unknown_variant(&v.unescaped(), allowed))
    }
}

/// What a JSON-valued field must hold.
#[derive(Clone, Copy)]
pub(crate) enum Check {
    /// Anything but `null`.
    NonNull,
    /// An object.
    Object,
}

pub(crate) fn check_raw<E: de::Error>(
    v: &RawJson<'_>,
    check: Check,
    field: &'static str,
) -> Result<(), E> {
    match check {
        Check::NonNull if v.is_null() => Err(E::custom(format_args!(
            "`{field}` may be absent but not null"
        ))),
        Check::Object if v.kind() != JsonKind::Object => Err(E::custom(format_args!(
            "`{field}` must be an object, found {}",
            v.kind().name()
        ))),
        _ => Ok(()),
    }
}

pub(crate) fn check_function<E: de::Error>(v: &Str<'_>) -> Result<(), E> {
    if v.eq_text("function") {
        Ok(())
    } else {
        Err(E::unknown_variant(&v.unescaped(), &["function"]))
    }
}
