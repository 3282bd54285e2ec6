-- CreateTable
CREATE TABLE "EditorReply" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EditorReply_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "EditorReply" ADD CONSTRAINT "EditorReply_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "EditorSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
