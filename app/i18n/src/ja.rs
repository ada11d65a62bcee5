use crate::*;

/// Japanese: the frame of every page and nothing more. Every other word is English's, the
/// language the interface is written in: the one fallback rule, which the tests that enable
/// Japanese hold every page to.
pub static JA: Catalogue = Catalogue {
    site: Site {
        language_name: "日本語",
        skip_to_content: "本文へ移動",
        nav_label: "サイト",
        nav_course: "コース",
        nav_xp: "XP とレベル",
        nav_account: "アカウント",
        language: "言語",
        footer: "Lockstep：分散学習は、動かして学ぶ。",
        search: "検索",
        search_placeholder: "コースを検索",
        ..en::EN.site
    },
    ..en::EN
};
