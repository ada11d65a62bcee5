//! The languages the site is read in: [`Lang`], the address segment of each (English where
//! pages have always been, Korean under `/ko`), how a terminal's locale names one, which of them
//! a site serves ([`Languages`]), and the one rule by which words missing in a language are read
//! in the language they were written in ([`Words`], [`Text`], [`say`]).

/// The language a page is read in. English pages are where they have always been; each has a
/// twin in each other language the site serves, under its code (`/ko/`). The address alone
/// decides, so the server's render and the browser's hydration, which both see it, always agree.
///
/// Japanese has a handful of words and is served only where [`Languages`] enable it (the tests
/// do): the proof that a language is data, its words falling back to the source's.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ko,
    Ja,
}

impl Lang {
    /// Every language there are words for; a site serves those its [`Languages`] name.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ko, Lang::Ja];

    /// The BCP 47 tag: `<html lang>`, `hreflang`, the `lang` cookie.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
            Lang::Ja => "ja",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code().eq_ignore_ascii_case(code))
    }

    /// The language of a POSIX locale name (`ko_KR.UTF-8`, `en_GB`, `ko`); none for `C`,
    /// `POSIX` and languages the site does not have.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let language = locale.split(['_', '.', '@', '-']).next().unwrap_or("");
        Lang::from_code(language)
    }

    /// The language a terminal program speaks when not told: that of the first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty (POSIX's order), English when it is
    /// one the site does not have.
    pub fn of_environment(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(var)
            .find(|v| !v.is_empty())
            .and_then(|v| Lang::from_locale(&v))
            .unwrap_or_default()
    }

    /// [`Lang::of_environment`] of this process's environment.
    pub fn of_this_process() -> Lang {
        Lang::of_environment(|k| std::env::var(k).ok())
    }

    /// The first path segment of this language's pages, its code (`ko`); none for English.
    pub fn segment(self) -> Option<&'static str> {
        match self {
            Lang::En => None,
            other => Some(other.code()),
        }
    }

    /// The language of a path: Korean under `/ko` (`/ko`, `/ko/`, `/ko/…`), Japanese under
    /// `/ja`, else English.
    pub fn of_path(path: &str) -> Lang {
        Lang::ALL
            .into_iter()
            .find(|l| {
                l.segment().is_some_and(|s| {
                    path.strip_prefix('/')
                        .and_then(|p| p.strip_prefix(s))
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
                })
            })
            .unwrap_or_default()
    }

    /// A site path (`/xp`, `/lessons/ddp#bucket`) as this language's page: `/ko/xp`.
    pub fn path(self, path: &str) -> String {
        match self.segment() {
            None => path.to_string(),
            Some(s) if path == "/" => format!("/{s}"),
            Some(s) => format!("/{s}{path}"),
        }
    }

    /// The path of the same page in English: `/ko/xp` → `/xp`, `/ko/` → `/`.
    pub fn strip(path: &str) -> &str {
        match Lang::of_path(path).segment() {
            None => path,
            Some(s) => match &path[1 + s.len()..] {
                "" => "/",
                rest if rest.starts_with(['?', '#']) => "/",
                rest => rest,
            },
        }
    }

    /// The same page in another language.
    pub fn switch(path: &str, to: Lang) -> String {
        to.path(Lang::strip(path))
    }
}

/// A language's code, as a command line gives it (`--lang=ko`).
impl std::str::FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Lang, String> {
        Lang::from_code(s).ok_or_else(|| {
            let known: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
            format!("unknown language `{s}`: the languages are {}", known.join(", "))
        })
    }
}

/// The languages a site serves, English first: pages at their addresses, the switcher's and the
/// sitemap's languages, the search's editions. Configured (`LOCKSTEP_LANGUAGES=en,ko`, the
/// default), and carried by each page to the browser so that it hydrates the switcher the
/// server rendered. A language not served is still spoken where no site decides: a terminal
/// whose locale is Japanese reads `lockstep submit` in Japanese's words, that is English's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Languages(Vec<Lang>);

impl Default for Languages {
    fn default() -> Languages {
        Languages(vec![Lang::En, Lang::Ko])
    }
}

impl Languages {
    /// The variable that names them, comma-separated codes.
    pub const VAR: &'static str = "LOCKSTEP_LANGUAGES";

    pub fn contains(&self, lang: Lang) -> bool {
        self.0.contains(&lang)
    }

    pub fn iter(&self) -> impl Iterator<Item = Lang> + '_ {
        self.0.iter().copied()
    }

    /// [`Languages::VAR`] as `var` reads it: the default when unset or empty.
    pub fn of_environment(var: impl Fn(&str) -> Option<String>) -> Result<Languages, String> {
        match var(Self::VAR).filter(|v| !v.trim().is_empty()) {
            None => Ok(Languages::default()),
            Some(text) => text.parse(),
        }
    }
}

/// Owned, as a view takes them: `page::languages().into_iter()`.
impl IntoIterator for Languages {
    type Item = Lang;
    type IntoIter = std::vec::IntoIter<Lang>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// `en,ko,ja`: known codes, each once, English among them (its pages are the site's root).
impl std::str::FromStr for Languages {
    type Err = String;

    fn from_str(text: &str) -> Result<Languages, String> {
        let mut langs = vec![Lang::En];
        let mut named_english = false;
        for code in text.split([',', ' ']).map(str::trim).filter(|c| !c.is_empty()) {
            let lang: Lang = code.parse()?;
            named_english |= lang == Lang::En;
            if langs.contains(&lang) && lang != Lang::En {
                return Err(format!("`{code}` is named twice"));
            }
            if lang != Lang::En {
                langs.push(lang);
            }
        }
        if !named_english {
            return Err("English (`en`) must be among them: its pages are the site's root".into());
        }
        Ok(Languages(langs))
    }
}

/// The codes, space-separated, as a page carries them: `en ko ja`.
impl std::fmt::Display for Languages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let codes: Vec<&str> = self.iter().map(Lang::code).collect();
        f.write_str(&codes.join(" "))
    }
}

/// Words written in several languages, the first the one they were written in. Read in a
/// language they have no words for, they are in that first one: the one fallback rule for what
/// the site says outside its interface's catalogue (levels, achievements, the grader's
/// sentences); the interface's catalogue has every word in every language. Written with
/// [`words!`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words(pub &'static [(Lang, &'static str)]);

impl Words {
    /// The words in `lang`, or in the language they were written in.
    pub fn get(self, lang: Lang) -> &'static str {
        let found = self.0.iter().find(|(l, _)| *l == lang).or(self.0.first());
        found.map_or("", |(_, text)| text)
    }

    /// Whether they are written in `lang` itself, not read through the fallback.
    pub fn has(self, lang: Lang) -> bool {
        self.0.iter().any(|(l, _)| *l == lang)
    }
}

/// [`Words`] from `language: text` pairs, the one they were written in first:
/// `words! { En: "First step", Ko: "첫걸음" }`.
#[macro_export]
macro_rules! words {
    ($($lang:ident: $text:expr),+ $(,)?) => {
        $crate::Words(&[$(($crate::Lang::$lang, $text)),+])
    };
}

/// Says what is written in several languages, each a closure worded only when asked for, the
/// first the language it was written in: [`Words`]' rule, for sentences with numbers in them.
pub fn say(lang: Lang, sayings: &[(Lang, &dyn Fn() -> String)]) -> String {
    let found = sayings.iter().find(|(l, _)| *l == lang).or(sayings.first());
    found.map_or_else(String::new, |(_, word)| word())
}

/// [`Words`] as a page model carries them to the browser: owned, with the same rule. In JSON,
/// an object by language code in the order written: `{"en": "Hands on", "ko": "직접 해보기"}`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Text(Vec<(Lang, String)>);

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (lang, text) in &self.0 {
            map.serialize_entry(lang, text)?;
        }
        map.end()
    }
}

impl<'de> serde::Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        struct InOrder;
        impl<'de> serde::de::Visitor<'de> for InOrder {
            type Value = Text;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("texts by language code")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
                let mut texts = Vec::new();
                while let Some(entry) = map.next_entry::<Lang, String>()? {
                    texts.push(entry);
                }
                Ok(Text(texts))
            }
        }
        deserializer.deserialize_map(InOrder)
    }
}

impl Text {
    /// A text written in `lang` only: read in that language by every reader.
    pub fn new(lang: Lang, text: impl Into<String>) -> Text {
        Text(vec![(lang, text.into())])
    }

    /// A text in every language the site has, each made by `word`; its source is the site's
    /// first language, English.
    pub fn each(mut word: impl FnMut(Lang) -> String) -> Text {
        Text(Lang::ALL.into_iter().map(|l| (l, word(l))).collect())
    }

    /// The text in `lang`, or in the language it was written in.
    pub fn get(&self, lang: Lang) -> &str {
        let found = self.0.iter().find(|(l, _)| *l == lang).or(self.0.first());
        found.map_or("", |(_, text)| text)
    }
}

/// `(language, text)` pairs, the one written in first.
impl FromIterator<(Lang, String)> for Text {
    fn from_iter<I: IntoIterator<Item = (Lang, String)>>(pairs: I) -> Text {
        Text(pairs.into_iter().collect())
    }
}

impl From<Words> for Text {
    fn from(words: Words) -> Text {
        Text(words.0.iter().map(|(l, t)| (*l, t.to_string())).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_fall_back_to_the_language_they_were_written_in() {
        let korean_first = words! { Ko: "첫걸음", En: "First step" };
        assert_eq!(korean_first.get(Lang::En), "First step");
        assert_eq!(korean_first.get(Lang::Ko), "첫걸음");
        let english_only = words! { En: "First step" };
        assert_eq!(english_only.get(Lang::Ko), "First step");
        assert!(!english_only.has(Lang::Ko));
        let text = Text::from(korean_first);
        assert_eq!(text.get(Lang::En), "First step");
        assert_eq!(Text::from(words! { Ko: "첫걸음" }).get(Lang::En), "첫걸음");
        assert_eq!(Text::default().get(Lang::En), "");
        let each = Text::each(|l| l.code().to_uppercase());
        assert_eq!((each.get(Lang::En), each.get(Lang::Ko)), ("EN", "KO"));
        assert_eq!(Text::new(Lang::En, "only").get(Lang::Ko), "only");
        // JSON keeps the order written, so the source stays first.
        let json = serde_json::to_string(&Text::from(korean_first)).unwrap();
        assert_eq!(json, r#"{"ko":"첫걸음","en":"First step"}"#);
        let back: Text = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Text::from(korean_first));
        let n = 3;
        let said = |lang| {
            say(
                lang,
                &[(Lang::En, &|| format!("{n} ranks")), (Lang::Ko, &|| format!("rank {n}개"))],
            )
        };
        assert_eq!(
            (said(Lang::En), said(Lang::Ko)),
            ("3 ranks".to_string(), "rank 3개".to_string())
        );
        assert_eq!(say(Lang::Ko, &[(Lang::En, &|| "only".into())]), "only");
    }

    #[test]
    fn a_site_serves_the_languages_it_is_configured_with() {
        let env = |value: &'static str| move |_: &str| Some(value.to_string());
        assert_eq!(Languages::of_environment(|_| None), Ok(Languages::default()));
        assert_eq!(Languages::of_environment(env(" ")), Ok(Languages::default()));
        let three = Languages::of_environment(env("ko, en,ja")).unwrap();
        assert_eq!(three.iter().collect::<Vec<_>>(), [Lang::En, Lang::Ko, Lang::Ja]);
        assert_eq!(three.to_string(), "en ko ja");
        assert_eq!(three.to_string().parse::<Languages>(), Ok(three));
        assert!(Languages::of_environment(env("ko")).unwrap_err().contains("English"));
        assert!(Languages::of_environment(env("en,xx")).unwrap_err().contains("`xx`"));
        assert!(Languages::of_environment(env("en,ko,ko")).unwrap_err().contains("twice"));
        assert_eq!(Lang::of_path("/ja/xp"), Lang::Ja);
        assert_eq!(Lang::switch("/ja/xp", Lang::Ko), "/ko/xp");
    }

    #[test]
    fn a_terminal_speaks_its_locale() {
        assert_eq!(Lang::from_locale("ko_KR.UTF-8"), Some(Lang::Ko));
        assert_eq!(Lang::from_locale("en_GB"), Some(Lang::En));
        assert_eq!(Lang::from_locale("C.UTF-8"), None);
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(Lang::of_environment(env(&[("LANG", "ko_KR.UTF-8")])), Lang::Ko);
        // LC_ALL wins over LANG; an empty one counts as unset.
        assert_eq!(Lang::of_environment(env(&[("LC_ALL", "C"), ("LANG", "ko_KR")])), Lang::En);
        assert_eq!(Lang::of_environment(env(&[("LC_ALL", ""), ("LANG", "ko_KR")])), Lang::Ko);
        assert_eq!(Lang::of_environment(env(&[("LC_MESSAGES", "ko"), ("LANG", "en")])), Lang::Ko);
        assert_eq!(Lang::of_environment(env(&[])), Lang::En);
    }
}
