use crate::*;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub const EN: Catalogue = Catalogue {
    site: Site {
        language_name: "English",
        skip_to_content: "Skip to content",
        nav_label: "Site",
        nav_course: "Courses",
        nav_xp: "XP & levels",
        nav_account: "Account",
        language: "Language",
        footer: "Lockstep: learn distributed training by running it.",
        search: "Search",
        search_placeholder: "Search the course",
        broken_page: "Something went wrong on this page, and its buttons may no longer respond.",
        reload: "Reload the page",
    },
    markdown: Markdown {
        link_to_section: "Link to this section",
        note: "Note",
        tip: "Tip",
        important: "Important",
        warning: "Warning",
        caution: "Caution",
        copy_code: "Copy code",
        copy: "Copy",
        copied: "Copied",
        copy_failed: "Copy failed",
        exercise_link: "Start from this script and submit it for grading",
    },
    progress: Progress {
        panel_label: "Your progress",
        level: |n| format!("Level {n}"),
        xp: |n| format!("{n} XP"),
        lessons: |done, total, percent| format!("{done}/{total} lessons · {percent}%"),
        achievements: |done, total| format!("{done}/{total} achievements"),
        bar_label: "XP to the next level",
        to_next_level: |into, span, next, to_go, percent| {
            format!("{into}/{span} XP to level {next} · {to_go} XP to go · {percent}%")
        },
        top_level: "Top level reached",
        local_only_before: "Progress is local-only — ",
        sign_in: "sign in",
        local_only_after: " to sync across devices.",
        signed_in_before: "Signed in as ",
        signed_in_after: " — progress syncs across devices.",
        how_xp_works: "How XP works",
        achievement: |name| format!("Achievement: {name}"),
    },
    course: CourseWords {
        loading: "Loading the course…",
        load_failed: "The course could not be loaded: ",
        hero: |lessons, minutes| format!("Course · {lessons} lessons · ~{minutes} min"),
        drafts_among: |n| format!(" ({n} of them not published yet, which learners do not count)"),
        progress_label: "Course progress",
        lessons_completed: " lessons completed",
        lesson_meta: |position, total, minutes, xp| {
            format!("Lesson {position:02} of {total:02} · ~{minutes} min · {xp} XP")
        },
        completed: "✓ completed",
        unavailable: "unavailable: the lesson file has errors",
        tags: "Tags",
        catalogue_title: "Courses",
        catalogue_lede: "Distributed training with PyTorch, learned by running it: every \
                         simulation matches real torch, every exercise runs under torchrun.",
        catalogue_label: "Courses",
        card_meta: |lessons, minutes| format!("{} · ~{minutes} min", plural(lessons, "lesson", "lessons")),
        by: |authors| format!("by {authors}"),
        start: |title| format!("Start: {title}"),
        resume: |title| format!("Continue: {title}"),
        finished: "✓ every lesson completed",
        no_lessons_yet: "No lessons published yet.",
        draft: "draft",
        all_courses: "All courses",
    },
    lesson: LessonWords {
        loading: "Loading the lesson…",
        load_failed: "The lesson could not be loaded: ",
        position: |position, total| format!("Lesson {position:02} of {total:02}"),
        minutes: |m| format!("~{m} min"),
        on_this_page: "On this page",
        hide: "Hide",
        show: "Show",
        prev_next: "Lessons",
        progress_label: "Progress",
        completed: |xp| format!("✓ You completed this lesson ({xp} XP)."),
        mark_complete: |xp| format!("Mark lesson complete · +{xp} XP"),
        reset_summary: "Reset this lesson's progress…",
        reset_explain: "A reset takes back this lesson's XP: its completion, its simulations and \
                        its quiz. You can earn it all again; a quiz you have seen answered no \
                        longer counts as a first attempt.",
        reset_confirm: "Yes, reset this lesson",
        broken: "This lesson cannot be shown right now: its file has errors. The rest of the \
                 course is available.",
        broken_for_instructor_before: "For the instructor (",
        broken_for_instructor_after: " prints the same):",
        back_to_course: "Back to the course",
        not_translated: |written_in| {
            let original = language(written_in);
            format!(
                "This lesson has not been translated into English yet, so it is shown as it is \
                 written, in {original}. Your progress and XP count the same in every language."
            )
        },
        draft: "Draft — only instructors see this. Learners cannot open, find or count it until \
                it is published; comments and reports open then.",
        scheduled: [
            "Scheduled — only instructors see this until ",
            "; learners get it from then on, and comments and reports open then.",
        ],
        preview_as_learner: "See it as a learner will",
        previewing: "Preview: this page as learners will get it once it is published.",
        back_to_draft: "Back to the draft",
    },
    quiz: Quiz {
        title: |n| format!("Quiz: {}", plural(n, "question", "questions")),
        rules: |again, pass_mark, total| {
            format!(
                "{}{pass_mark} of {total} right passes; you can answer as often as you like, \
                 the options shuffled each time.",
                if again { "Try again: " } else { "" }
            )
        },
        choose_all: " (choose every option that applies)",
        check: "Check answers",
        score: |passed, right, total| {
            format!(
                "{}: {right} of {total} right.",
                if passed { "Passed" } else { "Not passed yet" }
            )
        },
        hidden_until_passed: "The right answers show once you pass; until then, each option you \
                              chose says why it is right or wrong. ",
        why: "Why",
        right: " ✓ right",
        not_right: " ✗ not right",
        yours_correct: "your answer, correct",
        yours_not_correct: "your answer, not correct",
        correct_not_chosen: "correct, not chosen",
        yours: "your answer",
        stale: "This quiz was answered elsewhere since this page loaded, so its options are in \
                a new order; nothing was recorded. Here it is again.",
    },
    xp: XpWords {
        title: "How XP works",
        loading: "Loading…",
        load_failed: "The rules could not be loaded: ",
        intro: "The server records what you do and works out your XP from it. Doing something \
                twice earns it once; resetting a lesson takes its XP away until you earn it again.",
        earning: "Earning XP",
        what: "What",
        earns_the_lessons: "the lesson's XP, shown on its page",
        earns_each: |xp| format!("{xp} XP each"),
        quizzes: "Quizzes",
        quiz_policy_before: "Each attempt at a quiz shows its options in a new order, and you may \
                             answer as often as you like. Until you pass, the review of an attempt \
                             says which questions were wrong and why each option you chose is right \
                             or wrong, but not which options are right: otherwise the review of a \
                             failed attempt would be the answer key for the next, and a pass would \
                             show only that you copied it. Once you pass, the review shows every \
                             answer with its explanation. A perfect score counts for ",
        flawless: "Flawless",
        quiz_policy_after: " only at your first attempt at a quiz; resetting the lesson does not \
                            make a quiz you have seen answered new.",
        levels: "Levels",
        level: "Level",
        from: "From",
        name: "Name",
        achievements: "Achievements",
        earned: " ✓ earned",
        by_course: "By course",
        course: "Course",
        lessons: "Lessons",
        new_lessons: "When lessons are added",
        new_lessons_text: "Your XP is worked out again from what you have done, by the rules \
                           above, each time a page shows it. A lesson published later only adds \
                           to what there is to earn: it never lowers your XP or your level \
                           (levels are fixed amounts of XP). An achievement about a whole \
                           course (half of it, all of it, every simulation or quiz in it) is \
                           judged by the lessons that were published when you earned it, so a \
                           new lesson never takes one back: it is one more lesson to take.",
    },
    account: AccountWords {
        title: "Account",
        load_failed: "The account page could not be loaded: ",
        signed_in_as_before: "Signed in as ",
        signed_in_as_after: ".",
        instructor_view: "Instructor view: every learner and question",
        change_password: "Change password",
        current_password: "Current password",
        new_password: "New password",
        terminal: "Submit from a terminal",
        new_token: "Your new token, shown only this once: ",
        token_before: "With a token, ",
        token_after: " submits a script and follows its grading. A new token replaces the last one.",
        make_token: "Make a new token",
        sign_out: "Sign out",
        why_sign_in: "Sign in to keep your progress on every device. What you did in this browser \
                      is added to your account; nothing counts twice.",
        sign_in: "Sign in",
        email: "Email",
        password: "Password",
        create: "Create an account",
        password_rule: "Password (at least 10 characters)",
        create_button: "Create account",
        no_email: "No email is ever sent. If you forget your password, ask your instructor to reset it.",
        email_invalid: "Enter an email address such as ada@example.org.",
        email_taken: "An account with this email already exists. Sign in instead.",
        password_weak: |why| format!("Choose a stronger password: {why}."),
        weak_too_short: "use at least 10 characters",
        weak_too_long: "use at most 256 bytes",
        weak_has_email: "do not use your email in it",
        weak_common: "this one is among the first that attackers try",
        wrong_credentials: "The email or the password is wrong.",
        current_password_wrong: "Your current password is wrong.",
        too_many_attempts: |m| format!("Too many failed sign-ins. Try again in {m} minutes."),
        too_many_sign_ups: |m| {
            format!("Too many sign-ups from your network. Try again in {m} minutes.")
        },
        signed_in_as: |email| format!("Signed in as {email}."),
        password_changed: "Password changed. Other devices are signed out and your terminal \
                           token is revoked.",
        display_name: "Display name",
        display_name_help: "Shown beside your comments instead of your email, which nobody else sees. \
                            Leave it empty to be shown as a learner number.",
        save_name: "Save name",
        name_saved: "Your display name is saved.",
        name_too_long: |max| format!("A display name is at most {max} characters."),
        merged_item: |kind, n| match (n, kind) {
            (1, kind) => format!("1 {kind}"),
            (n, "quiz") => format!("{n} quizzes"),
            (n, kind) => format!("{n} {kind}s"),
        },
        merged: |items, xp| format!(" Merged from this browser: {items} (+{xp} XP)."),
        already_had: |n| format!(" {n} already in your account, counted once."),
    },
    exercise: ExerciseWords {
        loading: "Loading the exercise…",
        load_failed: "The exercise could not be loaded: ",
        submit: "Submit for grading",
        sign_in: "Sign in",
        sign_in_to_submit: " to submit: grading runs your script on a real machine for a few \
                            minutes, so it is kept for accounts.",
        grader_before: "The grader runs your script with ",
        grader_after: |xp| {
            format!(
                " in a sandbox, watches what every rank really does, and checks it against the \
                 lesson. A pass (every check) earns {xp} XP, once. "
            )
        },
        back_to_section: "Back to the lesson section",
        checks: "What the grader checks",
        where_taught: "Where the lesson teaches it",
        upload: "Or upload your script (it replaces the text below): ",
        start_over: "Start over from the lesson's script",
        from_draft: "Your latest draft, kept with your account: it follows you to any device.",
        from_start: "The lesson's starting script. Your draft is replaced once you edit this.",
        from_refused: "The script you just tried to submit.",
        from_submission: |id| format!("The script of submission #{id}: edit it and submit again."),
        draft_restored: "Restored the draft this browser kept from your last visit.",
        draft_saved: "Draft saved to your account.",
        draft_save_failed: "Draft kept in this browser only: the server could not save it.",
        draft_kept: "Draft kept in this browser.",
        python_code: "Python code",
        your_submissions: "Your submissions",
        submitted: "Submitted",
        submission: "Submission",
        status: "Status",
    },
    instructor: InstructorWords {
        filter: "Courses",
        title: "Instructor view",
        only_title: "Instructors only",
        only_before: "This page shows every learner's progress, so only instructors see it. ",
        only_middle: " with an instructor's account; an operator grants the role on the server with ",
        load_failed: "The instructor view could not be loaded: ",
        learners: |n| format!("Learners ({n})"),
        contents: "On this page",
        reports_heading: "Reports",
        learners_heading: "Learners",
        csv: "Download as CSV",
        learner: "Learner",
        level: "Level",
        lessons: "Lessons",
        quizzes_passed: "Quizzes passed",
        achievements: "Achievements",
        submissions: "Submissions",
        submissions_intro: "The latest 200, every learner's. Open one to read its verdict or grade \
                            it again.",
        submission: "Submission",
        exercise: "Exercise",
        status: "Status",
        questions: "Quiz questions",
        questions_intro: "Counted over each learner's first answer to a quiz, before its review \
                          showed the right options. A low share right points at a part of the \
                          lesson that does not teach it yet.",
        lesson: "Lesson",
        question: "Question",
        answered: "Answered",
        right: "Right",
        reports: |n| format!("Reports ({n})"),
        reports_intro: "What learners reported, newest first. Set its status and answer: a signed-in \
                        reporter finds the answer in their notifications.",
        no_reports: "No reports yet.",
        when: "When",
        place: "Where",
        what: "What is wrong",
        from: "From",
        anonymous: "anonymous",
        answer: "Answer",
        save: "Save",
        report_status: |s| match s {
            "fixed" => "fixed",
            "wontfix" => "won't fix",
            _ => "open",
        },
        comments_settings: "Comments",
        hold_first_comments: "Hold a new account's comments until an instructor approves one of them",
        save_settings: "Save settings",
    },
    submission: SubmissionWords {
        loading: "Loading the submission…",
        load_failed: "The submission could not be loaded: ",
        title: |id| format!("Submission #{id}"),
        heading: |id, file| format!("Submission #{id}: {file}"),
        exercise_crumb: "Exercise: ",
        resubmit: "Edit this script and resubmit",
        cancel: "Cancel this submission",
        rerun: "Grade it again",
        graded_script: "The script that was graded",
        beside_model: "Your run beside the cost model, for your model and batch",
        read_section: "Read the lesson section that teaches this",
        waiting: "Waiting for a grading machine.",
        waiting_next: "Waiting for a grading machine: yours is next.",
        waiting_ahead: |ahead| format!("Waiting for a grading machine: {ahead} ahead of yours."),
        on_node: |node| format!("Running on GPU node {node}"),
        being_graded: "Being graded",
        attempt: |place, attempt| {
            if attempt > 1 {
                format!("{place} (attempt {attempt}).")
            } else {
                format!("{place}.")
            }
        },
        run: |index, what| format!("Run {index}: {what}."),
        run_took: |index, what, s| format!("Run {index}: {what}: {s:.1} s"),
        run_running: |index, what| format!("Run {index}: {what}: running…"),
        requeued: |reason| format!("Back in the queue: {reason}."),
        graded: |status, summary| format!("Graded: {status}. {summary}"),
        failed: |reason| {
            format!(
                "The grading platform could not grade it: {reason}. Nothing to fix in your \
                 script; submit it again later."
            )
        },
        cancelled: "Cancelled before grading.",
        run_ddp: |n| format!("your script with {n} processes"),
        run_single: "your script with 1 process, to time the speedup",
        run_uninterrupted: |n| format!("your script with {n} processes, left to finish"),
        run_interrupted: |n| format!("your script with {n} processes, one of them killed mid-epoch"),
        status_word: |s| match s {
            "pass" => "pass",
            "fail" => "fail",
            "error" => "error",
            "timeout" => "timeout",
            "skip" => "skip",
            "queued" => "queued",
            "running" => "running",
            "graded" => "graded",
            "failed" => "not graded",
            "cancelled" => "cancelled",
            _ => "?",
        },
        case_scale: |len, shown| {
            format!(
                " (your dataset has {len} sample{}; {shown} show the same pattern)",
                if len == 1 { "" } else { "s" }
            )
        },
        case_set_epoch: |replicas, scale| {
            format!(
                "Your case: DistributedSampler over {replicas} processes without \
                 set_epoch{scale}. Step through the epochs: every epoch repeats the first order."
            )
        },
        case_sharding: |replicas, scale| {
            format!(
                "How DistributedSampler splits your data over {replicas} processes{scale}: each \
                 index goes to one rank."
            )
        },
    },
    search: SearchWords {
        title: "Search",
        label: "Search the course",
        button: "Search",
        loading: "Searching…",
        failed: "The search failed: ",
        found: |n| {
            if n == 1 {
                "1 section".to_string()
            } else {
                format!("{n} sections")
            }
        },
        nothing: |q| format!("No section has every word of \u{201c}{q}\u{201d}."),
        try_words: "Try:",
        elsewhere: |lang, n| {
            let edition = language(lang);
            let sections = if n == 1 { "1 section".to_string() } else { format!("{n} sections") };
            format!("The {edition} edition of the course has {sections} for it.")
        },
        too_long: |max| format!("Search for at most {max} characters."),
        too_many_words: |max| format!("Search for at most {max} words."),
        no_words: "There are no words to search for: letters or digits, please.",
        hint: "Every word must be in the section: all-reduce, set_epoch, gradient bucket.",
    },
    notifications: NotificationWords {
        title: "Notifications",
        bell: |n| match n {
            0 => "Notifications".into(),
            n => format!("Notifications: {n} unread"),
        },
        none: "Nothing yet. Replies in the threads you follow and answers to your reports appear here.",
        sign_in_before: "Notifications are for signed-in learners: ",
        new: "New",
        open: "Open",
        mark_read: "Mark read",
        mark_all_read: "Mark all read",
        answer: "The instructor's answer:",
    },
    report: ReportWords {
        link: "⚑ Report a problem",
        lead: "Found a bug or have feedback on this page?",
        what: "What is wrong?",
        section: "Where (optional)",
        whole_page: "The whole page",
        question: |quiz, q| format!("Quiz {}, question {}", quiz + 1, q + 1),
        send: "Send report",
        thanks: "Thank you: the instructors will read your report.",
        thanks_signed_in: "Thank you: the instructors will read your report, and their answer \
                           will reach your notifications.",
        too_many: |m| format!("Too many reports from here: try again in {}.", lockstep_units::plural(m as u64, "minute", "minutes")),
        empty: "Say what is wrong.",
        too_long: |max| format!("A report is at most {max} characters."),
        verdict: "⚑ Report a problem with this verdict",
    },
    sims: &crate::sims::EN,
    terminal: TerminalWords {
        submitted: |id, url| format!("submitted as #{id}: {url}"),
        queued: |ahead| format!("queued, {ahead} ahead"),
        started_on_node: |node, worker, attempt| {
            format!("grading on node {node} as {worker} (attempt {attempt})")
        },
        started: |worker, attempt| format!("grading on {worker} (attempt {attempt})"),
        run_started: |index, nproc, role| format!("run {index}: {nproc} process(es), {role}"),
        run_finished: |index, wall_s| format!("run {index} done in {wall_s:.1} s"),
        requeued: |reason| format!("back in the queue: {reason}"),
        gave_up: |reason| format!("the platform gave up: {reason}"),
        cancelled: "cancelled",
    },
    errors: Errors {
        not_found_title: "Page not found",
        not_found: "There is nothing at this address. The lesson may have been renamed.",
        status_title: |_| None,
        back_to_course: "Back to the course",
        logged: "the server failed; the error has been logged",
        instructors_only: "instructors only: sign in with an instructor's account",
        quiz_misfit: "these answers do not fit the quiz",
        no_quiz: "there is no such quiz",
    },
};

/// A language's name in English.
fn language(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "English",
        Lang::Ko => "Korean",
        Lang::Ja => "Japanese",
    }
}
