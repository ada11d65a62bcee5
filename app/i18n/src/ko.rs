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
        broken_page: "이 페이지에 문제가 생겨서 버튼이 더 이상 반응하지 않을 수 있습니다.",
        reload: "페이지 새로고침",
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
        drafts_among: |n| format!(" (그중 {n}개는 아직 게시 전이라 학습자의 레슨 수에는 들어가지 않습니다)"),
        progress_label: "코스 진행률",
        lessons_completed: " 레슨 완료",
        lesson_meta: |position, total, minutes, xp| {
            format!("레슨 {position:02} / {total:02} · 약 {minutes}분 · {xp} XP")
        },
        completed: "✓ 완료",
        unavailable: "지금은 볼 수 없음: 레슨 파일에 오류가 있습니다",
        tags: "태그",
        catalogue_title: "코스",
        catalogue_lede: "PyTorch 분산 학습을 직접 돌려 보며 배웁니다. 시뮬레이션은 실제 torch와 \
                         같은 숫자를 내고, 과제는 torchrun으로 실제로 실행해 채점합니다.",
        catalogue_label: "코스 목록",
        card_meta: |lessons, minutes| format!("레슨 {lessons}개 · 약 {minutes}분"),
        by: |authors| format!("지은이: {authors}"),
        start: |title| format!("시작하기: {title}"),
        resume: |title| format!("이어서: {title}"),
        finished: "✓ 모든 레슨 완료",
        no_lessons_yet: "아직 게시된 레슨이 없습니다.",
        draft: "초안",
        all_courses: "전체 코스",
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
        not_translated: |written_in| {
            let original = language(written_in);
            format!(
                "이 레슨은 아직 한국어로 옮기지 못해 {original} 원문으로 보여 드립니다. 진행 \
                 상황과 XP는 언어와 상관없이 그대로 쌓입니다."
            )
        },
        draft: "초안 — 강사에게만 보입니다. 게시하기 전까지 학습자는 이 레슨을 열 수도, 검색할 \
                수도 없고 진행률에도 잡히지 않습니다. 댓글과 문제 신고도 게시한 뒤에 열립니다.",
        scheduled: [
            "게시 예약 — ",
            "까지는 강사에게만 보이고, 그때부터 학습자에게 공개됩니다. 댓글과 문제 신고도 그때 \
             열립니다.",
        ],
        preview_as_learner: "학습자 화면으로 보기",
        previewing: "미리 보기: 게시된 뒤 학습자가 보게 될 화면입니다.",
        back_to_draft: "초안으로 돌아가기",
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
        stale: "이 페이지를 연 뒤 다른 곳에서 이 퀴즈에 답해서 보기 순서가 바뀌었습니다. 아무것도 \
                기록하지 않았으니 다시 풀어 보세요.",
    },
    xp: XpWords {
        title: "XP는 이렇게 쌓입니다",
        loading: "불러오는 중…",
        load_failed: "규칙을 불러오지 못했습니다: ",
        intro: "XP는 서버가 여러분의 활동 기록을 바탕으로 계산합니다. 같은 일을 두 번 해도 XP는 한 \
                번만 쌓이고, 레슨을 초기화하면 다시 얻을 때까지 그 레슨의 XP가 빠집니다.",
        earning: "XP 얻는 법",
        what: "활동",
        earns_the_lessons: "레슨마다 정해진 XP (레슨 페이지에 표시)",
        earns_each: |xp| format!("하나에 {xp} XP"),
        quizzes: "퀴즈",
        quiz_policy_before: "퀴즈는 시도할 때마다 보기 순서가 바뀌고, 몇 번이든 다시 풀 수 있습니다. \
                             통과하기 전에는 어느 문제를 틀렸는지, 고른 보기가 왜 맞고 틀렸는지만 \
                             알려 주고 정답 보기는 알려 주지 않습니다. 그렇지 않으면 틀린 시도의 \
                             리뷰가 곧 다음 시도의 답안지가 되고, 통과는 답을 베꼈다는 뜻밖에 안 \
                             되기 때문입니다. 통과하면 모든 정답을 해설과 함께 보여 드립니다. 만점은 \
                             그 퀴즈의 첫 시도일 때만 ",
        flawless: "만점",
        quiz_policy_after: " 업적으로 인정됩니다. 레슨을 초기화해도 이미 답을 본 퀴즈가 새 퀴즈가 \
                            되지는 않습니다.",
        levels: "레벨",
        level: "레벨",
        from: "필요 XP",
        name: "이름",
        achievements: "업적",
        earned: " ✓ 달성",
        by_course: "코스별 진행 상황",
        course: "코스",
        lessons: "레슨",
        new_lessons: "레슨이 새로 추가되면",
        new_lessons_text: "XP는 페이지에 보일 때마다 지금까지 한 일을 위 규칙대로 다시 계산한 \
                           값입니다. 나중에 게시되는 레슨은 얻을 수 있는 XP를 늘릴 뿐, 이미 얻은 \
                           XP나 레벨을 깎지 않습니다(레벨은 정해진 XP 기준입니다). 코스 전체에 \
                           걸린 업적(절반, 완주, 모든 시뮬레이션, 모든 퀴즈)은 그 업적을 얻은 \
                           시점에 게시되어 있던 레슨을 기준으로 판단하므로, 새 레슨이 생겨도 이미 \
                           얻은 업적은 사라지지 않습니다. 들을 레슨이 하나 늘어날 뿐입니다.",
    },
    account: AccountWords {
        title: "계정",
        load_failed: "계정 페이지를 불러오지 못했습니다: ",
        signed_in_as_before: "",
        signed_in_as_after: " 계정으로 로그인되어 있습니다.",
        instructor_view: "강사용 화면: 모든 학습자와 문제 보기",
        change_password: "비밀번호 변경",
        current_password: "현재 비밀번호",
        new_password: "새 비밀번호",
        terminal: "터미널에서 제출하기",
        new_token: "새 토큰입니다. 지금 한 번만 보여 드립니다: ",
        token_before: "토큰이 있으면 ",
        token_after: " 명령으로 스크립트를 제출하고 채점 과정을 따라갈 수 있습니다. 새 토큰을 만들면 \
                      이전 토큰은 더 이상 쓸 수 없습니다.",
        make_token: "새 토큰 만들기",
        sign_out: "로그아웃",
        why_sign_in: "로그인하면 어느 기기에서든 진행 상황을 이어 갈 수 있습니다. 이 브라우저에서 \
                      한 활동도 계정에 합쳐지고, 두 번 계산되는 것은 없습니다.",
        sign_in: "로그인",
        email: "이메일",
        password: "비밀번호",
        create: "계정 만들기",
        password_rule: "비밀번호 (10자 이상)",
        create_button: "계정 만들기",
        no_email: "이메일은 보내지 않습니다. 비밀번호를 잊어버렸다면 강사에게 초기화를 요청하세요.",
        email_invalid: "ada@example.org 같은 이메일 주소를 입력하세요.",
        email_taken: "이 이메일로 만든 계정이 이미 있습니다. 로그인하세요.",
        password_weak: |why| format!("더 강한 비밀번호를 고르세요: {why}."),
        weak_too_short: "10자 이상으로 만드세요",
        weak_too_long: "256바이트 이하로 만드세요",
        weak_has_email: "이메일을 넣지 마세요",
        weak_common: "공격자가 가장 먼저 시도하는 비밀번호 중 하나입니다",
        wrong_credentials: "이메일 또는 비밀번호가 틀렸습니다.",
        current_password_wrong: "현재 비밀번호가 틀렸습니다.",
        too_many_attempts: |m| format!("로그인 실패가 너무 많습니다. {m}분 뒤에 다시 시도하세요."),
        too_many_sign_ups: |m| {
            format!("이 네트워크에서 가입이 너무 많습니다. {m}분 뒤에 다시 시도하세요.")
        },
        signed_in_as: |email| format!("{email} 계정으로 로그인했습니다."),
        password_changed: "비밀번호를 바꿨습니다. 다른 기기는 로그아웃되고 터미널 토큰도 \
                           폐기되었습니다.",
        display_name: "표시 이름",
        display_name_help: "댓글 옆에 이메일 대신 보이는 이름이에요. 이메일은 다른 사람에게 보이지 않아요. \
                            비워 두면 학습자 번호로 보여요.",
        save_name: "이름 저장",
        name_saved: "표시 이름을 저장했어요.",
        name_too_long: |max| format!("표시 이름은 최대 {max}자까지 쓸 수 있어요."),
        merged_item: |kind, n| {
            let name = match kind {
                "lesson" => "레슨",
                "simulation" => "시뮬레이션",
                "quiz" => "퀴즈",
                "perfect score" => "만점",
                "exercise" => "과제",
                "first-try pass" => "첫 제출 통과",
                other => other,
            };
            format!("{name} {n}개")
        },
        merged: |items, xp| format!(" 이 브라우저의 기록을 합쳤습니다: {items} (+{xp} XP)."),
        already_had: |n| format!(" {n}건은 이미 계정에 있어 한 번만 셉니다."),
    },
    exercise: ExerciseWords {
        loading: "과제를 불러오는 중…",
        load_failed: "과제를 불러오지 못했습니다: ",
        submit: "채점 받기",
        sign_in: "로그인",
        sign_in_to_submit: "해야 제출할 수 있습니다. 채점은 실제 머신에서 스크립트를 몇 분 동안 \
                            돌리기 때문에 계정이 있는 학습자에게만 열려 있습니다.",
        grader_before: "채점기는 여러분의 스크립트를 샌드박스 안에서 ",
        grader_after: |xp| {
            format!(
                "으로 실행하고, 각 rank가 실제로 무엇을 했는지 지켜본 뒤 레슨 내용과 맞는지 \
                 확인합니다. 모든 항목을 통과하면 {xp} XP를 한 번 받습니다. "
            )
        },
        back_to_section: "레슨의 해당 섹션으로 돌아가기",
        checks: "채점 항목",
        where_taught: "레슨에서 다루는 곳",
        upload: "또는 스크립트 파일을 올리세요 (아래 내용을 대체합니다): ",
        start_over: "레슨의 스크립트로 처음부터 다시 시작",
        from_draft: "계정에 저장된 최근 초안입니다. 어느 기기에서든 이어서 쓸 수 있습니다.",
        from_start: "레슨의 시작 스크립트입니다. 수정을 시작하면 기존 초안을 대체합니다.",
        from_refused: "방금 제출하려던 스크립트입니다.",
        from_submission: |id| format!("제출 #{id}의 스크립트입니다. 고쳐서 다시 제출해 보세요."),
        draft_restored: "지난 방문 때 이 브라우저에 보관한 초안을 불러왔습니다.",
        draft_saved: "초안을 계정에 저장했습니다.",
        draft_save_failed: "서버에 저장하지 못해 초안을 이 브라우저에만 보관했습니다.",
        draft_kept: "초안을 이 브라우저에 보관했습니다.",
        python_code: "Python 코드",
        your_submissions: "내 제출 기록",
        submitted: "제출 시각",
        submission: "제출",
        status: "상태",
    },
    instructor: InstructorWords {
        filter: "코스",
        title: "강사용 화면",
        only_title: "강사 전용",
        only_before: "이 페이지는 모든 학습자의 진행 상황을 보여 주기 때문에 강사만 볼 수 있습니다. \
                      강사 계정으로 ",
        only_middle: "하세요. 강사 권한은 운영자가 서버에서 다음 명령으로 부여합니다: ",
        load_failed: "강사용 화면을 불러오지 못했습니다: ",
        learners: |n| format!("학습자 ({n}명)"),
        contents: "이 페이지의 내용",
        reports_heading: "신고",
        learners_heading: "학습자",
        csv: "CSV로 내려받기",
        learner: "학습자",
        level: "레벨",
        lessons: "레슨",
        quizzes_passed: "통과한 퀴즈",
        achievements: "업적",
        submissions: "제출",
        submissions_intro: "모든 학습자의 최근 제출 200건입니다. 열어서 결과를 보거나 다시 채점할 수 \
                            있습니다.",
        submission: "제출",
        exercise: "과제",
        status: "상태",
        questions: "퀴즈 문제",
        questions_intro: "각 학습자가 퀴즈에 처음 답한 것, 즉 리뷰에서 정답을 보기 전의 답만 셉니다. \
                          정답률이 낮은 문제는 레슨이 아직 그 내용을 잘 가르치지 못한다는 뜻입니다.",
        lesson: "레슨",
        question: "문제",
        answered: "응답 수",
        right: "정답률",
        reports: |n| format!("신고 ({n})"),
        reports_intro: "학습자가 보낸 신고예요. 최신순입니다. 상태를 정하고 답하면, 로그인한 신고자는 \
                        알림으로 답을 받아요.",
        no_reports: "아직 신고가 없어요.",
        when: "시각",
        place: "위치",
        what: "내용",
        from: "보낸 사람",
        anonymous: "익명",
        answer: "답변",
        save: "저장",
        report_status: |s| match s {
            "fixed" => "고침",
            "wontfix" => "고치지 않음",
            _ => "열림",
        },
        comments_settings: "댓글 설정",
        hold_first_comments: "새 계정의 댓글은 강사가 그중 하나를 승인할 때까지 보류",
        save_settings: "설정 저장",
    },
    submission: SubmissionWords {
        loading: "제출을 불러오는 중…",
        load_failed: "제출을 불러오지 못했습니다: ",
        title: |id| format!("제출 #{id}"),
        heading: |id, file| format!("제출 #{id}: {file}"),
        exercise_crumb: "과제: ",
        resubmit: "이 스크립트를 고쳐서 다시 제출",
        cancel: "이 제출 취소",
        rerun: "다시 채점",
        graded_script: "채점한 스크립트",
        beside_model: "내 모델과 batch로 맞춘 비용 모델과 실제 실행 비교",
        read_section: "이 내용을 다루는 레슨 섹션 읽기",
        waiting: "채점 머신을 기다리는 중입니다.",
        waiting_next: "채점 머신을 기다리는 중입니다. 다음 차례입니다.",
        waiting_ahead: |ahead| format!("채점 머신을 기다리는 중입니다. 앞에 {ahead}건이 있습니다."),
        on_node: |node| format!("GPU 노드 {node}에서 실행 중"),
        being_graded: "채점 중",
        attempt: |place, attempt| {
            if attempt > 1 {
                format!("{place} ({attempt}번째 시도).")
            } else {
                format!("{place}.")
            }
        },
        run: |index, what| format!("실행 {index}: {what}."),
        run_took: |index, what, s| format!("실행 {index}: {what}: {s:.1}초"),
        run_running: |index, what| format!("실행 {index}: {what}: 실행 중…"),
        requeued: |reason| format!("다시 대기열로 돌아갔습니다: {reason}."),
        graded: |status, summary| format!("채점 완료: {status}. {summary}"),
        failed: |reason| {
            format!(
                "채점 플랫폼이 채점하지 못했습니다: {reason}. 스크립트를 고칠 필요는 없으니 \
                 나중에 다시 제출하세요."
            )
        },
        cancelled: "채점 전에 취소되었습니다.",
        run_ddp: |n| format!("프로세스 {n}개로 내 스크립트 실행"),
        run_single: "speedup을 재기 위해 프로세스 1개로 내 스크립트 실행",
        run_uninterrupted: |n| format!("프로세스 {n}개로 끝까지 내 스크립트 실행"),
        run_interrupted: |n| format!("프로세스 {n}개로 실행하고 epoch 중간에 하나를 종료"),
        status_word: |s| match s {
            "pass" => "통과",
            "fail" => "실패",
            "error" => "오류",
            "timeout" => "시간 초과",
            "skip" => "건너뜀",
            "queued" => "대기 중",
            "running" => "채점 중",
            "graded" => "채점 완료",
            "failed" => "채점 못 함",
            "cancelled" => "취소됨",
            _ => "?",
        },
        case_scale: |len, shown| {
            format!(" (데이터셋은 샘플 {len}개이고, 그중 {shown}개만 보여도 같은 패턴입니다)")
        },
        case_set_epoch: |replicas, scale| {
            format!(
                "내 경우: set_epoch 없이 프로세스 {replicas}개에 DistributedSampler를 \
                 썼습니다{scale}. epoch를 넘겨 보면 매 epoch가 첫 순서를 그대로 반복합니다."
            )
        },
        case_sharding: |replicas, scale| {
            format!(
                "DistributedSampler가 내 데이터를 프로세스 {replicas}개에 나누는 방식{scale}: \
                 인덱스 하나는 rank 하나에만 갑니다."
            )
        },
    },
    search: SearchWords {
        title: "검색",
        label: "코스에서 검색",
        button: "검색",
        loading: "검색하는 중…",
        failed: "검색하지 못했습니다: ",
        found: |n| format!("섹션 {n}개"),
        nothing: |q| format!("\u{201c}{q}\u{201d}의 단어를 모두 담은 섹션이 없습니다."),
        try_words: "이렇게 찾아보세요:",
        elsewhere: |lang, n| {
            let edition = format!("{}판", language(lang));
            format!("코스 {edition}에는 이 검색어가 담긴 섹션이 {n}개 있습니다.")
        },
        too_long: |max| format!("검색어는 {max}자까지 쓸 수 있습니다."),
        too_many_words: |max| format!("검색어는 {max}단어까지 쓸 수 있습니다."),
        no_words: "검색할 단어가 없습니다. 글자나 숫자를 넣어 주세요.",
        hint: "섹션에 모든 단어가 들어 있어야 합니다. 예: 모델, all-reduce, set_epoch.",
    },
    notifications: NotificationWords {
        title: "알림",
        bell: |n| match n {
            0 => "알림".into(),
            n => format!("알림: 읽지 않은 알림 {n}개"),
        },
        none: "아직 알림이 없어요. 팔로우한 스레드의 답글과 신고에 대한 답이 여기에 보여요.",
        sign_in_before: "알림은 로그인한 학습자만 받을 수 있어요: ",
        new: "새 알림",
        open: "보기",
        mark_read: "읽음",
        mark_all_read: "모두 읽음으로 표시",
        answer: "강사의 답:",
    },
    report: ReportWords {
        link: "⚑ 문제 신고",
        lead: "이 페이지에서 버그를 발견하셨거나 피드백이 있으세요?",
        what: "무엇이 잘못됐나요?",
        section: "위치 (선택)",
        whole_page: "페이지 전체",
        question: |quiz, q| format!("퀴즈 {}의 {}번 문제", quiz + 1, q + 1),
        send: "신고 보내기",
        thanks: "신고해 주셔서 고마워요. 강사가 읽어 볼 거예요.",
        thanks_signed_in: "신고해 주셔서 고마워요. 강사가 읽고 답하면 알림으로 알려 드릴게요.",
        too_many: |m| format!("신고가 너무 많아요. {m}분 뒤에 다시 해 보세요."),
        empty: "무엇이 잘못됐는지 써 주세요.",
        too_long: |max| format!("신고는 최대 {max}자까지 쓸 수 있어요."),
        verdict: "⚑ 이 채점 결과 신고하기",
    },
    sims: &crate::sims::KO,
    terminal: TerminalWords {
        submitted: |id, url| format!("제출함: #{id} {url}"),
        queued: |ahead| format!("대기열에 들어감, 앞에 {ahead}개"),
        started_on_node: |node, worker, attempt| {
            format!("채점 시작: node {node}, worker {worker} (시도 {attempt})")
        },
        started: |worker, attempt| format!("채점 시작: worker {worker} (시도 {attempt})"),
        run_started: |index, nproc, role| format!("run {index}: 프로세스 {nproc}개, {role}"),
        run_finished: |index, wall_s| format!("run {index} 끝남, {wall_s:.1} s"),
        requeued: |reason| format!("대기열로 돌아감: {reason}"),
        gave_up: |reason| format!("플랫폼이 채점을 포기했습니다: {reason}"),
        cancelled: "취소됨",
    },
    errors: Errors {
        not_found_title: "페이지를 찾을 수 없습니다",
        not_found: "이 주소에는 아무것도 없습니다. 레슨 이름이 바뀌었을 수 있습니다.",
        status_title: |status| match status {
            400 => Some("잘못된 요청"),
            401 => Some("로그인이 필요합니다"),
            403 => Some("권한이 없습니다"),
            404 => Some("찾을 수 없습니다"),
            413 => Some("너무 큽니다"),
            429 => Some("요청이 너무 많습니다"),
            500 => Some("서버 오류"),
            _ => None,
        },
        back_to_course: "강의로 돌아가기",
        logged: "서버에서 오류가 났습니다. 오류 내용은 기록해 두었습니다",
        instructors_only: "강사만 볼 수 있습니다. 강사 계정으로 로그인하세요",
        quiz_misfit: "이 답은 퀴즈와 맞지 않습니다",
        no_quiz: "그런 퀴즈는 없습니다",
    },
};

/// A language's name in Korean.
fn language(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "영어",
        Lang::Ko => "한국어",
        Lang::Ja => "일본어",
    }
}
