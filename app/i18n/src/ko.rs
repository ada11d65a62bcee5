use crate::*;

pub static KO: Catalogue = Catalogue {
    site: Site {
        language_name: "한국어",
        skip_to_content: "본문으로 건너뛰기",
        nav_label: "사이트",
        nav_course: "코스",
        nav_xp: "XP와 레벨",
        nav_account: "계정",
        language: "언어",
        footer: "Lockstep: 분산 학습은 직접 돌려 보며 배웁니다.",
        search: "검색",
        search_placeholder: "코스에서 검색",
    },
    markdown: Markdown {
        link_to_section: "이 섹션 링크",
        note: "참고",
        tip: "팁",
        important: "중요",
        warning: "주의",
        caution: "경고",
        copy_code: "코드 복사",
        copy: "복사",
        copied: "복사됨",
        copy_failed: "복사 실패",
        exercise_link: "이 스크립트에서 시작해 채점을 받아 보세요",
    },
    progress: Progress {
        panel_label: "내 진행 상황",
        level: |n| format!("레벨 {n}"),
        xp: |n| format!("{n} XP"),
        lessons: |done, total, percent| format!("레슨 {done}/{total} · {percent}%"),
        achievements: |done, total| format!("업적 {done}/{total}"),
        bar_label: "다음 레벨까지의 XP",
        to_next_level: |into, span, next, to_go, percent| {
            format!("레벨 {next}까지 {into}/{span} XP · {to_go} XP 남음 · {percent}%")
        },
        top_level: "최고 레벨에 도달했어요",
        local_only_before: "진행 상황은 이 브라우저에만 저장됩니다. 여러 기기에서 이어 보려면 ",
        sign_in: "로그인",
        local_only_after: "하세요.",
        signed_in_before: "",
        signed_in_after: " 계정으로 로그인됨 — 진행 상황이 기기 간에 동기화됩니다.",
        how_xp_works: "XP는 이렇게 쌓입니다",
        achievement: |name| format!("업적: {name}"),
    },
    course: CourseWords {
        loading: "코스를 불러오는 중…",
        load_failed: "코스를 불러오지 못했습니다: ",
        hero: |lessons, minutes| format!("코스 · 레슨 {lessons}개 · 약 {minutes}분"),
        progress_label: "코스 진행률",
        lessons_completed: " 레슨 완료",
        lesson_meta: |position, total, minutes, xp| {
            format!("레슨 {position} / {total} · 약 {minutes}분 · {xp} XP")
        },
        completed: "✓ 완료",
        unavailable: "지금은 볼 수 없음: 레슨 파일에 오류가 있습니다",
        tags: "태그",
    },
    lesson: LessonWords {
        loading: "레슨을 불러오는 중…",
        load_failed: "레슨을 불러오지 못했습니다: ",
        position: |position, total| format!("레슨 {position:02} / {total:02}"),
        minutes: |m| format!("약 {m}분"),
        on_this_page: "이 페이지의 내용",
        hide: "접기",
        show: "펼치기",
        prev_next: "레슨",
        progress_label: "진행 상황",
        completed: |xp| format!("✓ 이 레슨을 마쳤습니다 ({xp} XP)."),
        mark_complete: |xp| format!("레슨 완료로 표시 · +{xp} XP"),
        reset_summary: "이 레슨의 진행 상황 초기화…",
        reset_explain: "초기화하면 이 레슨에서 얻은 XP(완료, 시뮬레이션, 퀴즈)가 회수됩니다. 다시 \
                        모두 얻을 수 있지만, 이미 답을 본 퀴즈는 더 이상 첫 시도로 치지 않습니다.",
        reset_confirm: "네, 이 레슨을 초기화합니다",
        broken:
            "이 레슨은 파일에 오류가 있어 지금 보여 드릴 수 없습니다. 코스의 다른 레슨은 그대로 \
                 볼 수 있습니다.",
        broken_for_instructor_before: "강사용 (",
        broken_for_instructor_after: "도 같은 내용을 출력합니다):",
        back_to_course: "코스로 돌아가기",
        not_translated: "이 레슨은 아직 한국어로 옮기지 못해 영어 원문으로 보여 드립니다. 진행 \
                         상황과 XP는 언어와 상관없이 그대로 쌓입니다.",
    },
    quiz: Quiz {
        title: |n| format!("퀴즈: {n}문제"),
        rules: |again, pass_mark, total| {
            format!(
                "{}{total}문제 중 {pass_mark}문제를 맞히면 통과입니다. 몇 번이든 다시 풀 수 있고, \
                 풀 때마다 보기 순서가 바뀝니다.",
                if again { "다시 도전: " } else { "" }
            )
        },
        choose_all: " (해당하는 보기를 모두 고르세요)",
        check: "채점하기",
        score: |passed, right, total| {
            format!(
                "{}: {total}문제 중 {right}문제 정답.",
                if passed { "통과" } else { "아직 통과 못 함" }
            )
        },
        hidden_until_passed: "정답은 통과한 뒤에 공개됩니다. 그 전까지는 고른 보기마다 왜 맞고 \
                              틀렸는지만 보여 드립니다. ",
        why: "이유",
        right: " ✓ 정답",
        not_right: " ✗ 오답",
        yours_correct: "내 답, 정답",
        yours_not_correct: "내 답, 오답",
        correct_not_chosen: "정답, 고르지 않음",
        yours: "내 답",
    },
    errors: Errors {
        not_found_title: "페이지를 찾을 수 없습니다",
        not_found: "이 주소에는 아무것도 없습니다. 레슨 이름이 바뀌었을 수 있습니다.",
    },
};
